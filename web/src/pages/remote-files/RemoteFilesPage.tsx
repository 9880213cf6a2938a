/**
 * The files of one server, as the server sees them: breadcrumbs, directories first, hidden files on
 * request, new folder, rename, delete (a folder asks for its name typed), upload one file over SFTP
 * with progress, compare a file with staging, and Diagnose. The folder, the hidden-files choice and
 * the open diagnosis are in the URL.
 */
import { Alert, Anchor, Box, Breadcrumbs, Button, Group, Loader, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { BrowseEntry } from '@server/modules/remote/remote.schemas';
import { IconArrowLeft, IconFolderPlus, IconRefresh, IconStethoscope, IconUpload } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { servers } from '../../api/endpoints';
import { remoteFileQueries, remoteFilesApi, type FileOperation } from '../../api/resources/remote-files';
import { useStartWork } from '../../api/start-work';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState, Page } from '../../components/Page';
import { CompareDialog } from './CompareDialog';
import { DiagnosePanel } from './DiagnosePanel';
import { FileTable, type RowAction } from './FileTable';
import { NameDialog } from './NameDialog';
import { crumbsOf, joinPath, normalizeDir, visibleEntries } from './remote-paths';
import { UploadDialog } from './UploadDialog';
import { useFilesView } from './use-files-view';

type Dialog = { kind: 'mkdir' } | { kind: 'upload' } | { kind: RowAction; entry: BrowseEntry } | null;

export default function RemoteFilesPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const size = phone ? 'md' : 'sm';
  const serverId = Number(useParams().serverId);
  const validId = Number.isInteger(serverId) && serverId > 0;
  const { view, update, hrefFor } = useFilesView();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [goTo, setGoTo] = useState('');

  const server = useQuery({ queryKey: ['servers', 'one', serverId], queryFn: () => servers.get(serverId), enabled: validId });
  const dir = view.path ?? normalizeDir(server.data?.target_path || '/');
  const listing = useQuery({
    ...remoteFileQueries.list(serverId, dir),
    enabled: validId && (view.path !== null || server.isSuccess),
    placeholderData: keepPreviousData,
  });
  const all = listing.data?.entries ?? [];
  const entries = visibleEntries(all, view.showHidden);
  const hidden = all.length - visibleEntries(all, false).length;

  const op = useStartWork({
    work: (key, v: { operation: FileOperation; path: string; new_path?: string; done: string }) =>
      remoteFilesApi.op({ server_id: serverId, operation: v.operation, path: v.path, new_path: v.new_path }, key),
    onSuccess: (_res, v) => {
      notifications.show({ color: 'teal', message: v.done });
      setDialog(null);
      void client.invalidateQueries({ queryKey: remoteFileQueries.server(serverId) });
    },
    // A refused delete closes its dialog: the refusal shows above the list, where the operator looks next.
    onError: (_e, v) => {
      if (v.operation === 'delete') setDialog(null);
    },
  });
  const open = (d: Dialog) => {
    op.reset();
    setDialog(d);
  };
  const closeDialog = () => {
    op.reset();
    setDialog(null);
  };
  const name = server.data?.name ?? '';
  const title = server.data ? t('remoteFiles.title', { name }) : t('remoteFiles.titleLoading');
  const target = dialog && 'entry' in dialog ? dialog.entry : null;

  return (
    <Page
      title={title}
      actions={
        <>
          <Button component={Link} to={`/servers?server=${serverId}`} variant="subtle" size={size} leftSection={<IconArrowLeft size={16} aria-hidden />}>
            {t('remoteFiles.serverDetails')}
          </Button>
          <Button variant="light" size={size} leftSection={<IconStethoscope size={16} aria-hidden />} onClick={() => update({ diagnose: true })} disabled={!server.data}>
            {t('remoteFiles.diagnose')}
          </Button>
        </>
      }
    >
      <ErrorDisplay error={server.error} onRetry={() => void server.refetch()} />

      <Stack gap="xs">
        <Box component="nav" aria-label={t('remoteFiles.breadcrumbs')}>
          <Breadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap', rowGap: 4 }}>
          {crumbsOf(dir).map((c, i, list) =>
            i === list.length - 1 ? (
              <Text key={c.path} size="sm" ff="monospace" fw={600} aria-current="page" style={{ wordBreak: 'break-all' }}>
                {c.name}
              </Text>
            ) : (
              <Anchor key={c.path} component={Link} to={hrefFor(c.path)} size="sm" ff="monospace" aria-label={c.path === '/' ? t('remoteFiles.root') : undefined}>
                {c.name}
              </Anchor>
              ),
            )}
          </Breadcrumbs>
        </Box>
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Group gap="xs" wrap="wrap">
            <Button size={size} leftSection={<IconUpload size={16} aria-hidden />} onClick={() => open({ kind: 'upload' })} disabled={!validId}>
              {t('remoteFiles.upload')}
            </Button>
            <Button size={size} variant="default" leftSection={<IconFolderPlus size={16} aria-hidden />} onClick={() => open({ kind: 'mkdir' })} disabled={!validId}>
              {t('remoteFiles.newFolder')}
            </Button>
            <Button size={size} variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void listing.refetch()} loading={listing.isFetching}>
              {t('common.refresh')}
            </Button>
          </Group>
          <Switch label={t('remoteFiles.showHidden')} checked={view.showHidden} onChange={(e) => update({ showHidden: e.currentTarget.checked }, true)} size={phone ? 'md' : 'sm'} />
        </Group>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (goTo.trim()) update({ path: goTo.trim().startsWith('/') ? goTo.trim() : joinPath(dir, goTo.trim()) });
            setGoTo('');
          }}
        >
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              label={t('remoteFiles.goToLabel')}
              placeholder={dir}
              value={goTo}
              onChange={(e) => setGoTo(e.currentTarget.value)}
              size={size}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              style={{ flex: 1, minWidth: 0 }}
            />
            <Button type="submit" size={size} variant="default">
              {t('remoteFiles.open')}
            </Button>
          </Group>
        </form>
      </Stack>

      {/* The refusal of a delete (a protected path) in the operator's language; mkdir and rename show theirs in their dialog. */}
      {dialog === null && <ErrorDisplay error={op.error} />}
      <ErrorDisplay error={listing.error} onRetry={() => void listing.refetch()} />
      {listing.data?.error && (
        <Alert color="red" title={t('remoteFiles.listError')} role="alert">
          <Stack gap="xs">
            <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
              {listing.data.error}
            </Text>
            <Group gap="xs">
              <Button size="xs" variant="light" onClick={() => update({ diagnose: true })} disabled={!server.data}>
                {t('remoteFiles.diagnose')}
              </Button>
              <Button size="xs" variant="default" component={Link} to={hrefFor('/')}>
                {t('remoteFiles.root')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {listing.isPending && validId && !server.error && (
        <Group gap="xs" c="dimmed">
          <Loader size="xs" />
          <Text size="sm">{t('remoteFiles.loadingList')}</Text>
        </Group>
      )}
      {listing.data && !listing.data.error && (
        <Stack gap={6}>
          <Text size="xs" c="dimmed">
            {t('remoteFiles.entries', { count: entries.length })}
            {!view.showHidden && hidden > 0 && ` · ${t('remoteFiles.hiddenCount', { count: hidden })}`}
          </Text>
          {entries.length === 0 ? (
            <EmptyState>
              <Text size="sm">{hidden > 0 ? t('remoteFiles.emptyHidden') : t('remoteFiles.empty')}</Text>
              <Group gap="xs" justify="center">
                {hidden > 0 && (
                  <Button size={size} variant="light" onClick={() => update({ showHidden: true }, true)}>
                    {t('remoteFiles.showHidden')}
                  </Button>
                )}
                <Button size={size} variant="light" leftSection={<IconUpload size={16} aria-hidden />} onClick={() => open({ kind: 'upload' })}>
                  {t('remoteFiles.upload')}
                </Button>
              </Group>
            </EmptyState>
          ) : (
            <Box>
              <FileTable dir={dir} entries={entries} hrefFor={hrefFor} onAction={(kind, entry) => open({ kind, entry })} />
            </Box>
          )}
        </Stack>
      )}

      <NameDialog
        opened={dialog?.kind === 'mkdir'}
        title={t('remoteFiles.newFolderIn', { path: dir })}
        label={t('remoteFiles.folderName')}
        initial=""
        submitLabel={t('remoteFiles.create')}
        pending={op.pending}
        error={op.error}
        onSubmit={(n) => op.start({ operation: 'mkdir', path: joinPath(dir, n), done: t('remoteFiles.created', { name: n }) })}
        onClose={closeDialog}
      />
      <NameDialog
        opened={dialog?.kind === 'rename'}
        title={target ? t('remoteFiles.renameTitle', { name: target.name }) : ''}
        label={t('remoteFiles.newName')}
        initial={target?.name ?? ''}
        submitLabel={t('remoteFiles.rename')}
        pending={op.pending}
        error={op.error}
        onSubmit={(n) =>
          target &&
          op.start({ operation: 'rename', path: joinPath(dir, target.name), new_path: joinPath(dir, n), done: t('remoteFiles.renamed', { from: target.name, to: n }) })
        }
        onClose={closeDialog}
      />
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={target?.is_dir ? t('remoteFiles.deleteDirTitle') : t('remoteFiles.deleteFileTitle')}
        message={target ? t(target.is_dir ? 'remoteFiles.deleteDir' : 'remoteFiles.deleteFile', { path: joinPath(dir, target.name), server: name }) : ''}
        // A folder goes with everything in it: its name must be typed.
        word={target?.is_dir ? target.name : undefined}
        confirmLabel={t('remoteFiles.delete')}
        loading={op.pending}
        onConfirm={() => target && op.start({ operation: 'delete', path: joinPath(dir, target.name), done: t('remoteFiles.deleted', { name: target.name }) })}
        onClose={closeDialog}
      />
      {validId && <UploadDialog serverId={serverId} dir={dir} opened={dialog?.kind === 'upload'} onClose={() => setDialog(null)} />}
      {validId && (
        <CompareDialog serverId={serverId} serverTarget={server.data?.target_path ?? null} dir={dir} entry={dialog?.kind === 'compare' ? dialog.entry : null} onClose={() => setDialog(null)} />
      )}
      {server.data && (
        <DiagnosePanel
          opened={view.diagnose}
          serverId={serverId}
          serverName={name}
          defaultPath={server.data.target_path || ''}
          onClose={() => update({ diagnose: false }, true)}
        />
      )}
    </Page>
  );
}
