/**
 * The staging directories a push can start from, newest first. Each names the ZIP it came from
 * (file name, size, when it arrived) rather than only its random directory name, and its files
 * can be looked at before it is chosen.
 */
import { Button, Group, List, Paper, Radio, ScrollArea, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { StagingDir } from '@server/modules/staging/staging-dirs.schemas';
import { IconFile, IconFileZip, IconFolder } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stagingQueries } from '../../api/resources/staging';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { RelativeTime } from '../../components/Time';
import { formatBytes } from '../../i18n/format';
import { dirTitle } from '../staging/staging-view';

export function StagingDirPicker({ dirs, value, onChange, label }: { dirs: StagingDir[]; value: string | null; onChange: (path: string) => void; label: string }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    // The section's heading shows the name; the group's own (hidden) label names it for assistive tech.
    <Radio.Group value={value ?? ''} onChange={onChange} label={<VisuallyHidden>{label}</VisuallyHidden>}>
      <ScrollArea.Autosize mah={360}>
        <Stack gap={8}>
          {dirs.map((d) => (
            <DirRow key={d.path} d={d} open={open === d.path} onToggle={() => setOpen(open === d.path ? null : d.path)} />
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Radio.Group>
  );
}

function DirRow({ d, open, onToggle }: { d: StagingDir; open: boolean; onToggle: () => void }) {
  const { t, i18n } = useTranslation();
  const filesId = `staging-files-${d.name}`;
  const title = dirTitle(d);
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Radio
          value={d.path}
          aria-label={d.zip ? `${d.zip.filename} ${d.path}` : d.path}
          label={
            <Group gap={6} wrap="nowrap">
              {d.zip ? <IconFileZip size={16} aria-hidden /> : <IconFolder size={16} aria-hidden />}
              <Text size="sm" fw={d.zip ? 600 : undefined} ff={d.zip ? undefined : 'monospace'} style={{ wordBreak: 'break-all' }}>
                {title}
              </Text>
            </Group>
          }
          description={
            <>
              {d.zip ? `${formatBytes(d.zip.size, i18n.language)} · ` : ''}
              <RelativeTime size="xs" value={d.zip?.uploaded_at ?? d.modified} /> · {t('flow.dirEntries', { count: d.entries })}
              {d.zip && (
                <Text span size="xs" ff="monospace" display="block" style={{ wordBreak: 'break-all' }}>
                  {d.path}
                </Text>
              )}
            </>
          }
          style={{ minWidth: 0, flex: 1 }}
        />
        <Button size="compact-sm" mih={40} style={{ flexShrink: 0 }} variant="subtle" onClick={onToggle} aria-expanded={open} aria-controls={filesId} aria-label={`${open ? t('flow.hideFiles') : t('flow.viewFiles')}: ${title}`}>
          {open ? t('flow.hideFiles') : t('flow.viewFiles')}
        </Button>
      </Group>
      {open && <DirFiles id={filesId} path={d.path} name={title} />}
    </Stack>
  );
}

function DirFiles({ id, path, name }: { id: string; path: string; name: string }) {
  const { t, i18n } = useTranslation();
  const list = useQuery(stagingQueries.browse(path));
  return (
    <Paper withBorder p="xs" ml="lg" id={id}>
      {list.error && <ErrorDisplay error={list.error} onRetry={() => list.refetch()} />}
      {list.isLoading && <Text size="xs" c="dimmed" role="status">…</Text>}
      {list.data?.entries.length === 0 && <Text size="xs" c="dimmed">{t('flow.emptyDir')}</Text>}
      {list.data && list.data.entries.length > 0 && (
        <ScrollArea.Autosize mah={200}>
          <List size="xs" spacing={2} aria-label={t('flow.filesOf', { name })} listStyleType="none">
            {list.data.entries.map((e) => (
              <List.Item key={e.name} icon={e.is_dir ? <IconFolder size={14} aria-hidden /> : <IconFile size={14} aria-hidden />}>
                <Text span size="xs" ff="monospace">
                  {e.is_dir ? `${e.name}/` : e.name}
                </Text>
                {!e.is_dir && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    · {formatBytes(e.size, i18n.language)}
                  </Text>
                )}
              </List.Item>
            ))}
          </List>
        </ScrollArea.Autosize>
      )}
    </Paper>
  );
}
