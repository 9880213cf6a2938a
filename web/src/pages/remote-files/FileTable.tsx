/**
 * One remote folder as a table: directories first, then files. Only the rows in view are in the
 * page (a directory of 10,000 entries scrolls smoothly): spacer rows above and below stand for the
 * rest, so the table keeps real rows and headers for screen readers. On a phone the size, date and
 * owner move under the name and the table keeps two columns.
 */
import { ActionIcon, Anchor, Box, Group, Menu, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { BrowseEntry } from '@server/modules/remote/remote.schemas';
import { IconDots, IconFile, IconFolder, IconGitCompare, IconLink, IconPencil, IconTrash } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatBytes } from '../../i18n/format';
import { formatModified, joinPath, sizeOf } from './remote-paths';

export type RowAction = 'rename' | 'delete' | 'compare';

interface Props {
  dir: string;
  entries: BrowseEntry[];
  hrefFor: (path: string) => string;
  onAction: (action: RowAction, entry: BrowseEntry) => void;
}

const ROW_DESKTOP = 41;
const ROW_PHONE = 60;

function EntryIcon({ entry }: { entry: BrowseEntry }) {
  const { t } = useTranslation();
  const link = entry.perms.startsWith('l');
  const label = entry.is_dir ? t('remoteFiles.kindDir') : link ? t('remoteFiles.kindLink') : t('remoteFiles.kindFile');
  const Icon = entry.is_dir ? IconFolder : link ? IconLink : IconFile;
  return (
    <Box component="span" c={entry.is_dir ? 'blue' : 'dimmed'} style={{ display: 'inline-flex', flexShrink: 0 }} title={label}>
      <Icon size={18} aria-label={label} role="img" />
    </Box>
  );
}

function EntryName({ dir, entry, hrefFor }: { dir: string; entry: BrowseEntry; hrefFor: Props['hrefFor'] }) {
  const style = { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } as const;
  return (
    <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
      <EntryIcon entry={entry} />
      {entry.is_dir ? (
        <Anchor component={Link} to={hrefFor(joinPath(dir, entry.name))} size="sm" style={style}>
          {entry.name}
        </Anchor>
      ) : (
        <Text size="sm" style={style}>
          {entry.name}
        </Text>
      )}
    </Group>
  );
}

function RowMenu({ entry, onAction }: { entry: BrowseEntry; onAction: Props['onAction'] }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size={phone ? 40 : 'md'} aria-label={t('remoteFiles.actionsFor', { name: entry.name })}>
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={() => onAction('rename', entry)}>
          {t('remoteFiles.rename')}
        </Menu.Item>
        {!entry.is_dir && (
          <Menu.Item leftSection={<IconGitCompare size={16} aria-hidden />} onClick={() => onAction('compare', entry)}>
            {t('remoteFiles.compare')}
          </Menu.Item>
        )}
        <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => onAction('delete', entry)}>
          {t('remoteFiles.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function FileTable({ dir, entries, hrefFor, onAction }: Props) {
  const { t, i18n } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (phone ? ROW_PHONE : ROW_DESKTOP),
    overscan: 12,
    getItemKey: (i) => entries[i].name,
  });
  const items = virtualizer.getVirtualItems();
  const top = items.length > 0 ? items[0].start : 0;
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const size = (e: BrowseEntry) => {
    const n = sizeOf(e.size);
    return e.is_dir ? '' : n === null ? e.size : formatBytes(n, i18n.language);
  };
  const cols = phone ? 2 : 6;

  return (
    <Box
      ref={scrollRef}
      // Its own scroll box: the page never scrolls sideways, and the header stays in view.
      style={{ maxHeight: 'max(320px, calc(100dvh - 300px))', overflow: 'auto', border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)' }}
      tabIndex={0}
      role="region"
      aria-label={t('remoteFiles.listLabel', { path: dir })}
    >
      <Table stickyHeader highlightOnHover verticalSpacing={6} layout="fixed" aria-rowcount={entries.length + 1}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('remoteFiles.columns.name')}</Table.Th>
            {!phone && (
              <>
                <Table.Th w={100} ta="right">
                  {t('remoteFiles.columns.size')}
                </Table.Th>
                <Table.Th w={170}>{t('remoteFiles.columns.modified')}</Table.Th>
                <Table.Th w={120}>{t('remoteFiles.columns.perms')}</Table.Th>
                <Table.Th w={110}>{t('remoteFiles.columns.owner')}</Table.Th>
              </>
            )}
            <Table.Th w={phone ? 56 : 64}>
              <VisuallyHidden>{t('remoteFiles.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {top > 0 && (
            <tr aria-hidden style={{ height: top }}>
              <td colSpan={cols} style={{ padding: 0, border: 0 }} />
            </tr>
          )}
          {items.map((v) => {
            const e = entries[v.index];
            return (
              <Table.Tr key={v.key} data-index={v.index} ref={virtualizer.measureElement} aria-rowindex={v.index + 2}>
                <Table.Td>
                  <EntryName dir={dir} entry={e} hrefFor={hrefFor} />
                  {phone && (
                    <Text size="xs" c="dimmed" mt={2} style={{ wordBreak: 'break-all' }}>
                      {[size(e), formatModified(e.modified, i18n.language), e.perms, e.owner].filter(Boolean).join(' · ')}
                    </Text>
                  )}
                </Table.Td>
                {!phone && (
                  <>
                    <Table.Td ta="right" fz="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {size(e)}
                    </Table.Td>
                    <Table.Td fz="sm">{formatModified(e.modified, i18n.language)}</Table.Td>
                    <Table.Td fz="sm" ff="monospace">
                      {e.perms}
                    </Table.Td>
                    <Table.Td fz="sm" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                      {e.owner}
                    </Table.Td>
                  </>
                )}
                <Table.Td>
                  <RowMenu entry={e} onAction={onAction} />
                </Table.Td>
              </Table.Tr>
            );
          })}
          {bottom > 0 && (
            <tr aria-hidden style={{ height: bottom }}>
              <td colSpan={cols} style={{ padding: 0, border: 0 }} />
            </tr>
          )}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
