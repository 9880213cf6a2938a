/**
 * One folder of a staging directory (`?path=`): its entries, folders first; open a folder,
 * preview a file (text as text, binary said to be binary), rename or delete an entry, make a
 * folder. The folder itself can be validated as a push source or pushed ("Push this").
 */
import { Alert, Anchor, Breadcrumbs, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import type { LocalEntry } from '@server/modules/staging/staging.schemas';
import { IconArrowLeft, IconCircleCheck, IconCloudUpload, IconFile, IconFolder, IconFolderPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { stagingApi, stagingQueries } from '../../api/resources/staging';
import { useStartWork } from '../../api/start-work';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState, Page } from '../../components/Page';
import { formatBytes } from '../../i18n/format';
import { FilePreview } from './FilePreview';
import { browseLink, crumbs, dirTitle, joinPath, pushLink, rootOf } from './staging-view';

type Dialog = { kind: 'mkdir' } | { kind: 'rename'; entry: LocalEntry } | { kind: 'delete'; entry: LocalEntry } | { kind: 'preview'; entry: LocalEntry };

export function StagingBrowser() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const path = params.get('path') ?? '';
  const list = useQuery({ ...stagingQueries.browse(path), enabled: path !== '' });
  const dirs = useQuery(stagingQueries.dirs());
  const root = rootOf(path, dirs.data?.items ?? []);
  const rootLabel = root ? dirTitle(root) : (path.split('/').pop() ?? path);
  const trail = crumbs(path, root?.path ?? null, rootLabel);
  const here = trail[trail.length - 1]?.label ?? path;
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [name, setName] = useState('');

  const validate = useMutation({ mutationFn: () => stagingApi.validate(path) });
  const refresh = () => qc.invalidateQueries({ queryKey: stagingQueries.all });
  const op = useStartWork({
    work: (key, d: Dialog) => {
      if (d.kind === 'mkdir') return stagingApi.mkdir(joinPath(path, name.trim()), key);
      if (d.kind === 'rename') return stagingApi.rename(joinPath(path, d.entry.name), name, key);
      return stagingApi.remove(joinPath(path, d.kind === 'delete' ? d.entry.name : ''), key);
    },
    onSuccess: () => {
      setDialog(null);
      return refresh();
    },
  });
  const open = (d: Dialog) => {
    op.reset();
    setName(d.kind === 'rename' ? d.entry.name : '');
    setDialog(d);
  };

  return (
    <Page
      title={t('staging.browseTitle', { name: rootLabel })}
      actions={
        <>
          <Button component={Link} to={pushLink(path)} leftSection={<IconCloudUpload size={16} aria-hidden />} aria-label={t('staging.pushThisName', { name: here })}>
            {t('staging.pushThis')}
          </Button>
          <Button variant="light" loading={validate.isPending} onClick={() => validate.mutate()} aria-label={t('staging.validateName', { name: here })}>
            {t('staging.validate')}
          </Button>
        </>
      }
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Anchor component={Link} to="/staging" size="sm">
          <Group gap={4} wrap="nowrap" component="span">
            <IconArrowLeft size={14} aria-hidden />
            {t('staging.backToList')}
          </Group>
        </Anchor>
        <Button variant="default" size="sm" leftSection={<IconFolderPlus size={16} aria-hidden />} onClick={() => open({ kind: 'mkdir' })}>
          {t('staging.newFolder')}
        </Button>
      </Group>
      <nav aria-label={t('staging.location')}>
        <Breadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap' }}>
          {trail.map((c, i) =>
            i === trail.length - 1 ? (
              <Text key={c.path} size="sm" fw={600} aria-current="page" style={{ wordBreak: 'break-all' }}>
                {c.label}
              </Text>
            ) : (
              <Anchor key={c.path} component={Link} to={browseLink(c.path)} size="sm" style={{ wordBreak: 'break-all' }}>
                {c.label}
              </Anchor>
            ),
          )}
        </Breadcrumbs>
      </nav>
      <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
        {list.data?.path ?? path}
      </Text>
      {validate.data && (
        <Alert color="teal" icon={<IconCircleCheck size={18} aria-hidden />} role="status" withCloseButton closeButtonLabel={t('common.close')} onClose={() => validate.reset()}>
          {t('staging.valid', {
            name: here,
            files: t('staging.fileCount', { count: validate.data.file_count }),
            size: formatBytes(validate.data.size_bytes, i18n.language),
          })}{' '}
          {validate.data.file_count_truncated && t('staging.validTruncated', { count: validate.data.file_count })}
        </Alert>
      )}
      <ErrorDisplay error={validate.error} />
      <ErrorDisplay error={list.error} onRetry={() => list.refetch()} />
      {list.data && list.data.entries.length === 0 && (
        <EmptyState>
          <Text>{t('staging.emptyFolder')}</Text>
          <Button variant="light" leftSection={<IconFolderPlus size={16} aria-hidden />} onClick={() => open({ kind: 'mkdir' })}>
            {t('staging.newFolder')}
          </Button>
        </EmptyState>
      )}
      {list.data && list.data.entries.length > 0 && (
        <Table.ScrollContainer minWidth={320}>
          <Table aria-label={t('staging.entriesLabel', { name: here })} verticalSpacing={4} stickyHeader>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('staging.name')}</Table.Th>
                <Table.Th ta="right" visibleFrom="sm">{t('staging.size')}</Table.Th>
                <Table.Th>{t('staging.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.entries.map((e) => (
                <Table.Tr key={e.name}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    <Group gap={6} wrap="nowrap">
                      {e.is_dir ? <IconFolder size={16} aria-hidden style={{ flexShrink: 0 }} /> : <IconFile size={16} aria-hidden style={{ flexShrink: 0 }} />}
                      {e.is_dir ? (
                        <Anchor component={Link} to={browseLink(joinPath(path, e.name))} size="sm" ff="monospace" aria-label={t('staging.openFolder', { name: `${e.name}/` })}>
                          {e.name}/
                        </Anchor>
                      ) : (
                        <Stack gap={0}>
                          <Text size="sm" ff="monospace">{e.name}</Text>
                          <Text size="xs" c="dimmed" hiddenFrom="sm">{formatBytes(e.size, i18n.language)}</Text>
                        </Stack>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right" visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                    {e.is_dir ? <Text span size="sm" c="dimmed">{t('staging.folder')}</Text> : formatBytes(e.size, i18n.language)}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="wrap">
                      {!e.is_dir && (
                        <Button size="compact-sm" mih={40} variant="light" onClick={() => open({ kind: 'preview', entry: e })} aria-label={t('staging.previewName', { name: e.name })}>
                          {t('staging.preview')}
                        </Button>
                      )}
                      <Button size="compact-sm" mih={40} variant="subtle" onClick={() => open({ kind: 'rename', entry: e })} aria-label={t('staging.renameName', { name: e.name })}>
                        {t('staging.rename')}
                      </Button>
                      <Button size="compact-sm" mih={40} variant="subtle" color="red" onClick={() => open({ kind: 'delete', entry: e })} aria-label={t('staging.deleteName', { name: e.name })}>
                        {t('common.delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal
        opened={dialog?.kind === 'mkdir' || dialog?.kind === 'rename'}
        onClose={() => setDialog(null)}
        title={dialog?.kind === 'rename' ? t('staging.renameName', { name: dialog.entry.name }) : t('staging.newFolder')}
        centered
      >
        <form
          onSubmit={(ev) => {
            ev.preventDefault();
            if (dialog && name.trim()) op.start(dialog);
          }}
        >
          <Stack>
            <TextInput label={dialog?.kind === 'rename' ? t('staging.newName') : t('staging.folderName')} value={name} onChange={(ev) => setName(ev.currentTarget.value)} data-autofocus required maxLength={255} autoComplete="off" />
            <ErrorDisplay error={op.error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDialog(null)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={op.pending} disabled={!name.trim()}>
                {dialog?.kind === 'rename' ? t('staging.rename') : t('staging.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={dialog?.kind === 'delete' ? t('staging.deleteName', { name: dialog.entry.name }) : ''}
        message={dialog?.kind === 'delete' ? t(dialog.entry.is_dir ? 'staging.deleteFolderConfirm' : 'staging.deleteFileConfirm', { name: dialog.entry.name }) : ''}
        word={dialog?.kind === 'delete' && dialog.entry.is_dir ? dialog.entry.name : undefined}
        confirmLabel={t('common.delete')}
        loading={op.pending}
        onConfirm={() => dialog && op.start(dialog)}
        onClose={() => setDialog(null)}
      />
      {dialog?.kind === 'delete' && <ErrorDisplay error={op.error} />}
      <FilePreview path={dialog?.kind === 'preview' ? joinPath(path, dialog.entry.name) : null} onClose={() => setDialog(null)} />
    </Page>
  );
}
