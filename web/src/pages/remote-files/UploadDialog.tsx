/**
 * One file to the current folder over SFTP: the service's limit is shown before a file is chosen,
 * a file over it is refused here already, and the bytes sent show as a progress bar with Cancel.
 */
import { Alert, Button, FileInput, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadProgress } from '../../api/client';
import { remoteFileQueries, remoteFilesApi } from '../../api/resources/remote-files';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { formatBytes } from '../../i18n/format';

export function UploadDialog({ serverId, dir, opened, onClose }: { serverId: number; dir: string; opened: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const limits = useQuery({ ...remoteFileQueries.limits(), enabled: opened });
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const fmt = (n: number) => formatBytes(n, i18n.language);
  const limit = limits.data?.upload_max_bytes ?? null;
  const tooLarge = file !== null && limit !== null && file.size > limit;

  const send = useMutation({
    mutationFn: (f: File) => {
      abort.current = new AbortController();
      setProgress({ loaded: 0, total: f.size });
      return remoteFilesApi.upload(serverId, dir, f, setProgress, abort.current.signal);
    },
    onSuccess: (res) => {
      notifications.show({ color: 'teal', message: t('remoteFiles.uploaded', { name: res.filename, size: fmt(res.size) }) });
      void client.invalidateQueries({ queryKey: remoteFileQueries.server(serverId) });
      close();
    },
  });
  const cancelled = send.error instanceof DOMException && send.error.name === 'AbortError';

  function close() {
    abort.current?.abort();
    setFile(null);
    setProgress(null);
    send.reset();
    onClose();
  }

  const total = progress?.total || file?.size || 0;
  const pct = progress && total > 0 ? Math.min(100, (progress.loaded / total) * 100) : 0;
  return (
    <Modal opened={opened} onClose={close} title={t('remoteFiles.uploadTitle', { path: dir })} centered>
      <Stack>
        <Text size="sm" fw={600}>
          {limit === null ? t('common.loading') : t('remoteFiles.uploadLimit', { size: fmt(limit) })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('remoteFiles.uploadReplace')}
        </Text>
        <FileInput
          label={t('remoteFiles.chooseFile')}
          placeholder={t('remoteFiles.choosePlaceholder')}
          value={file}
          onChange={(f) => {
            setFile(f);
            setProgress(null);
            send.reset();
          }}
          disabled={send.isPending}
          clearable
        />
        {tooLarge && limit !== null && (
          <Alert color="red" role="alert">
            {t('remoteFiles.tooLarge', { size: fmt(file.size), limit: fmt(limit) })}
          </Alert>
        )}
        {progress && (
          <Stack gap={4}>
            <Progress value={pct} aria-label={t('remoteFiles.progressLabel')} animated={send.isPending} />
            <Text size="xs" c="dimmed" aria-live="polite">
              {t('remoteFiles.progress', { loaded: fmt(progress.loaded), total: fmt(total) })}
            </Text>
          </Stack>
        )}
        {cancelled ? <Alert color="gray">{t('remoteFiles.uploadCancelled')}</Alert> : <ErrorDisplay error={send.error} />}
        <Group justify="flex-end">
          {send.isPending ? (
            <Button variant="default" color="red" onClick={() => abort.current?.abort()}>
              {t('remoteFiles.cancelUpload')}
            </Button>
          ) : (
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
          )}
          <Button leftSection={<IconUpload size={16} aria-hidden />} disabled={!file || tooLarge || limit === null} loading={send.isPending} onClick={() => file && send.mutate(file)}>
            {t('remoteFiles.send')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
