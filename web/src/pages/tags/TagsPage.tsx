/**
 * Every tag with its server count. A tag opens the servers list filtered by it and the push flow
 * with its servers chosen; it can be renamed on every server (merging into a tag already in use
 * only after a confirmation naming both) or removed from all of them.
 */
import { Alert, Anchor, Badge, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import type { TagCount } from '@server/modules/servers/fleet-query.schemas';
import { IconCircleCheck, IconCloudUpload, IconServer } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/errors';
import { tagQueries, tagsApi } from '../../api/resources/tags';
import { useStartWork } from '../../api/start-work';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState, Page } from '../../components/Page';
import { formatNumber } from '../../i18n/format';
import { pushToTagLink, serversOfTagLink } from './tag-links';

type Dialog = { kind: 'rename'; tag: TagCount } | { kind: 'merge'; tag: TagCount; to: string } | { kind: 'remove'; tag: TagCount };
type Done = { kind: 'renamed'; from: string; to: string; count: number } | { kind: 'removed'; tag: string; count: number };

export default function TagsPage() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const tags = useQuery(tagQueries.list());
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [name, setName] = useState('');
  const [done, setDone] = useState<Done | null>(null);

  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: tagQueries.all }), qc.invalidateQueries({ queryKey: ['servers'] })]);
  const rename = useStartWork({
    work: (key, v: { from: string; to: string; merge: boolean }) => tagsApi.rename(v.from, v.to, v.merge, key),
    onSuccess: (res) => {
      setDialog(null);
      setDone({ kind: 'renamed', from: res.from, to: res.to ?? '', count: res.servers });
      return refresh();
    },
    onError: (err, v) => {
      // Servers already carry the new name: ask before merging (it cannot be undone by renaming back).
      if (err instanceof ApiError && err.code === 'tag_exists' && dialog?.kind === 'rename') setDialog({ kind: 'merge', tag: dialog.tag, to: v.to.trim() });
    },
  });
  const remove = useStartWork({
    work: (key, tag: string) => tagsApi.remove(tag, key),
    onSuccess: (res) => {
      setDialog(null);
      setDone({ kind: 'removed', tag: res.from, count: res.servers });
      return refresh();
    },
  });
  const openRename = (tag: TagCount) => {
    rename.reset();
    setName(tag.tag);
    setDialog({ kind: 'rename', tag });
  };
  const renameError = rename.error instanceof ApiError && rename.error.code === 'tag_exists' ? null : rename.error;
  const items = tags.data ?? [];

  return (
    <Page title={t('tags.title')}>
      <Text size="sm" c="dimmed">
        {t('tags.intro')}
      </Text>
      <ErrorDisplay error={tags.error} onRetry={() => tags.refetch()} />
      {done && (
        <Alert color="teal" icon={<IconCircleCheck size={18} aria-hidden />} role="status" withCloseButton closeButtonLabel={t('common.close')} onClose={() => setDone(null)}>
          {done.kind === 'renamed' ? t('tags.renamed', { from: done.from, to: done.to, count: done.count }) : t('tags.removed', { tag: done.tag, count: done.count })}
        </Alert>
      )}
      {tags.isSuccess && items.length === 0 && (
        <EmptyState>
          <Text>{t('tags.empty')}</Text>
          <Button component={Link} to="/servers" leftSection={<IconServer size={16} aria-hidden />}>
            {t('tags.toServers')}
          </Button>
        </EmptyState>
      )}
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={320}>
          <Table aria-label={t('tags.listLabel')} verticalSpacing="xs" stickyHeader>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('tags.tag')}</Table.Th>
                <Table.Th ta="right" visibleFrom="sm">{t('tags.servers')}</Table.Th>
                <Table.Th>{t('tags.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((tg) => (
                <Table.Tr key={tg.tag}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Stack gap={2} align="flex-start">
                      <Anchor component={Link} to={serversOfTagLink(tg.tag)} aria-label={t('tags.showServers', { tag: tg.tag })}>
                        <Badge variant="light" radius="sm" size="lg" styles={{ label: { textTransform: 'none', overflow: 'visible', whiteSpace: 'normal', overflowWrap: 'anywhere' } }} style={{ cursor: 'pointer', height: 'auto', minHeight: 28, maxWidth: '100%' }}>
                          {tg.tag}
                        </Badge>
                      </Anchor>
                      {/* On a phone the count column is hidden: the count sits under the tag. */}
                      <Text size="xs" c="dimmed" hiddenFrom="sm">
                        {t('tags.serverCount', { count: tg.count })}
                      </Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td ta="right" visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                    <Anchor component={Link} to={serversOfTagLink(tg.tag)} size="sm" title={t('tags.serverCount', { count: tg.count })} aria-label={`${t('tags.serverCount', { count: tg.count })}: ${tg.tag}`}>
                      {formatNumber(tg.count, i18n.language)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="wrap">
                      <Button component={Link} to={pushToTagLink(tg.tag)} size="compact-sm" mih={40} leftSection={<IconCloudUpload size={14} aria-hidden />} aria-label={t('tags.pushToTag', { tag: tg.tag })}>
                        {t('tags.pushTo')}
                      </Button>
                      <Button size="compact-sm" mih={40} variant="light" onClick={() => openRename(tg)} aria-label={t('tags.renameTag', { tag: tg.tag })}>
                        {t('tags.rename')}
                      </Button>
                      <Button size="compact-sm" mih={40} variant="subtle" color="red" onClick={() => { remove.reset(); setDialog({ kind: 'remove', tag: tg }); }} aria-label={t('tags.removeTag', { tag: tg.tag })}>
                        {t('tags.remove')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={dialog?.kind === 'rename'} onClose={() => setDialog(null)} title={dialog ? t('tags.renameTag', { tag: dialog.tag.tag }) : ''} centered>
        <form
          onSubmit={(ev) => {
            ev.preventDefault();
            if (dialog?.kind !== 'rename' || !name.trim()) return;
            // A name already listed goes straight to the merge question; the service's 409 covers a tag added meanwhile.
            if (items.some((x) => x.tag === name.trim())) setDialog({ kind: 'merge', tag: dialog.tag, to: name.trim() });
            else rename.start({ from: dialog.tag.tag, to: name, merge: false });
          }}
        >
          <Stack>
            {dialog && <Text size="sm">{t('tags.renameHelp', { tag: dialog.tag.tag, count: dialog.tag.count })}</Text>}
            <TextInput label={t('tags.newName')} value={name} onChange={(ev) => setName(ev.currentTarget.value)} data-autofocus required maxLength={64} autoComplete="off" />
            <ErrorDisplay error={renameError} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDialog(null)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={rename.pending} disabled={!name.trim() || name.trim() === dialog?.tag.tag}>
                {t('tags.rename')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <ConfirmDialog
        opened={dialog?.kind === 'merge'}
        title={dialog?.kind === 'merge' ? t('tags.mergeTitle', { to: dialog.to }) : ''}
        message={dialog?.kind === 'merge' ? t('tags.mergeConfirm', { from: dialog.tag.tag, to: dialog.to }) : ''}
        confirmLabel={t('tags.merge')}
        loading={rename.pending}
        onConfirm={() => dialog?.kind === 'merge' && rename.start({ from: dialog.tag.tag, to: dialog.to, merge: true })}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        opened={dialog?.kind === 'remove'}
        title={dialog?.kind === 'remove' ? t('tags.removeTag', { tag: dialog.tag.tag }) : ''}
        message={dialog?.kind === 'remove' ? t('tags.removeConfirm', { tag: dialog.tag.tag, count: dialog.tag.count }) : ''}
        confirmLabel={t('tags.remove')}
        loading={remove.pending}
        onConfirm={() => dialog?.kind === 'remove' && remove.start(dialog.tag.tag)}
        onClose={() => setDialog(null)}
      />
      <ErrorDisplay error={remove.error ?? (dialog?.kind === 'merge' ? renameError : null)} />
    </Page>
  );
}
