/**
 * Step 1: where the files come from. A ZIP is uploaded with a real progress bar (bytes sent) and
 * extracted by the service into a new staging directory, whose listing is shown; or an existing
 * staging directory is picked. The upload limits come from the service and show before a file is
 * chosen.
 */
import { Alert, Button, FileButton, Group, List, Paper, Progress, ScrollArea, Stack, Text, Title } from '@mantine/core';
import type { UploadZipResponse } from '@server/modules/staging/staging.schemas';
import { IconFileZip } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { staging } from '../../api/endpoints';
import { stagingQueries } from '../../api/resources/staging';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { formatBytes } from '../../i18n/format';
import { StagingDirPicker } from './StagingDirPicker';

/** How the service read the archive's file names, as the encodings are commonly called. */
const ENCODING_NAMES: Record<UploadZipResponse['name_encoding'], string> = { 'utf-8': 'UTF-8', gb18030: 'GB18030 (GBK)', cp437: 'CP437' };

export function SourceStep({ value, onChange }: { value: string | null; onChange: (path: string) => void }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const dirs = useQuery(stagingQueries.dirs());
  const limits = useQuery({ queryKey: ['sync-limits'], queryFn: staging.limits, staleTime: Number.POSITIVE_INFINITY });
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [uploaded, setUploaded] = useState<UploadZipResponse | null>(null);
  const abort = useRef<AbortController | null>(null);

  const upload = useMutation({
    mutationFn: (file: File) => {
      abort.current = new AbortController();
      setProgress({ loaded: 0, total: file.size });
      return staging.uploadZip(file, setProgress, abort.current.signal);
    },
    onSuccess: (res) => {
      setUploaded(res);
      onChange(res.source_path);
      void client.invalidateQueries({ queryKey: stagingQueries.all });
    },
    onSettled: () => setProgress(null),
  });

  const pct = progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('push.sourceHelp')}
      </Text>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('push.uploadZip')}
          </Title>
          <Group>
            <FileButton onChange={(f) => f && upload.mutate(f)} accept=".zip,application/zip">
              {(props) => (
                <Button {...props} leftSection={<IconFileZip size={18} aria-hidden />} loading={upload.isPending} variant="light">
                  {t('push.chooseZip')}
                </Button>
              )}
            </FileButton>
            {upload.isPending && (
              <Button variant="subtle" color="gray" onClick={() => abort.current?.abort()}>
                {t('common.cancel')}
              </Button>
            )}
          </Group>
          {/* The service's own limits, before a file is chosen: a 600 MB ZIP is refused here, not after its upload. */}
          {limits.data && (
            <Text size="sm" c="dimmed">
              {t('flow.zipLimits', { size: formatBytes(limits.data.zip_max_bytes, i18n.language), inflated: formatBytes(limits.data.zip_max_uncompressed, i18n.language) })}
            </Text>
          )}
          {progress && (
            <Stack gap={4}>
              <Progress value={pct} aria-label={t('push.uploadZip')} animated striped />
              <Text size="sm" aria-live="polite">
                {t('push.uploading', { loaded: formatBytes(progress.loaded, i18n.language), total: formatBytes(progress.total, i18n.language) })} ({pct}%)
              </Text>
            </Stack>
          )}
          {upload.error && (upload.error as Error).name !== 'AbortError' && <ErrorDisplay error={upload.error} />}
          {uploaded && (
            <Alert color="teal" variant="light" title={t('push.extracted', { count: uploaded.file_count, path: uploaded.source_path })}>
              <ScrollArea.Autosize mah={180}>
                <List size="xs" ff="monospace" aria-label={t('push.fileList')}>
                  {uploaded.files.map((f) => (
                    <List.Item key={f}>{f}</List.Item>
                  ))}
                </List>
              </ScrollArea.Autosize>
              {uploaded.files_truncated && (
                <Text size="xs" c="dimmed">
                  {t('push.filesTruncated', { count: uploaded.file_count - uploaded.files.length })}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {t('push.namesReadAs', { encoding: ENCODING_NAMES[uploaded.name_encoding] })}
              </Text>
            </Alert>
          )}
        </Stack>
      </Paper>

      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('push.pickStaging')}
          </Title>
          {dirs.error && <ErrorDisplay error={dirs.error} onRetry={() => dirs.refetch()} />}
          {dirs.data?.items.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('push.stagingEmpty')}
            </Text>
          )}
          {dirs.data && <StagingDirPicker dirs={dirs.data.items} value={value} onChange={onChange} label={t('push.pickStaging')} />}
        </Stack>
      </Paper>
    </Stack>
  );
}
