/**
 * One push batch, live, with what an operator does next: cancel while it runs; afterwards retry
 * the failed servers (a new push of the same source, mode and target to just those), verify the
 * result and compare a file. Used by the push flow's last step and by the batch page.
 */
import { Alert, Anchor, Button, Code, Group, Stack, Text } from '@mantine/core';
import type { SyncMode } from '@server/modules/push/push.schemas';
import { IconPlayerStop, IconRefresh } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBatchStream } from '../../api/batch-stream';
import { push } from '../../api/endpoints';
import { useStartWork } from '../../api/start-work';
import { syncModeLabel } from '../../i18n/enums';
import { ErrorDisplay } from '../ErrorDisplay';
import { BatchProgress } from './BatchProgress';
import { DiffPanel } from './DiffPanel';
import { VerifyPanel } from './VerifyPanel';

export function BatchLive({ batchId, onNewBatch, linkToBatch = false }: { batchId: string; onNewBatch: (id: string) => void; linkToBatch?: boolean }) {
  const { t } = useTranslation();
  const { stream, error } = useBatchStream(batchId);
  const cancel = useStartWork({ work: (key) => push.cancel(batchId, key) });
  const servers = useMemo(() => Object.values(stream.servers), [stream.servers]);
  const failedIds = servers.filter((s) => s.status === 'failed').map((s) => s.server_id);
  // Verify and compare make sense wherever a push ran, including where it failed half-way.
  const okServers = servers.filter((s) => s.status === 'success' || s.status === 'failed').map((s) => ({ id: s.server_id, name: s.server_name ?? `#${s.server_id}` }));
  const retry = useStartWork({
    work: (key) =>
      push.start(
        {
          server_ids: failedIds,
          source_path: stream.source_path ?? '',
          target_path: stream.target_path,
          sync_mode: (stream.sync_mode ?? 'incremental') as SyncMode,
        },
        key,
      ),
    onSuccess: (res) => onNewBatch(res.batch_id),
  });
  const running = stream.status === 'running';

  if (error && stream.lastSeq === 0) return <ErrorDisplay error={error} />;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {t('history.source')}: <Code>{stream.source_path ?? '…'}</Code> · {t('history.mode')}: {syncModeLabel(stream.sync_mode, t)}
            {stream.target_path ? (
              <>
                {' '}
                · {t('push.targetPath')}: <Code>{stream.target_path}</Code>
              </>
            ) : null}
          </Text>
          {linkToBatch && (
            <Anchor component={Link} to={`/history/${encodeURIComponent(batchId)}`} size="sm">
              {t('push.openBatch')}
            </Anchor>
          )}
        </Stack>
        <Group gap="xs">
          {running && (
            <Button color="red" variant="light" leftSection={<IconPlayerStop size={16} aria-hidden />} loading={cancel.pending} disabled={cancel.isSuccess} onClick={() => cancel.start()}>
              {t('push.cancel')}
            </Button>
          )}
          {!running && failedIds.length > 0 && stream.source_path && (
            <Button leftSection={<IconRefresh size={16} aria-hidden />} loading={retry.pending} onClick={() => retry.start()}>
              {t('push.retryFailed', { count: failedIds.length })}
            </Button>
          )}
        </Group>
      </Group>
      {cancel.isSuccess && running && <Alert color="orange">{t('push.cancelling')}</Alert>}
      <ErrorDisplay error={cancel.error ?? retry.error} />
      {stream.replayed > 0 && (
        <Text size="xs" c="dimmed" aria-live="polite">
          {t('push.liveReplay', { count: stream.replayed })}
        </Text>
      )}
      <BatchProgress stream={stream} />
      {!running && stream.source_path && okServers.length > 0 && (
        <>
          <VerifyPanel source={stream.source_path} targetPath={stream.target_path} serverIds={okServers.map((s) => s.id)} />
          <DiffPanel source={stream.source_path} targetPath={stream.target_path} servers={okServers} />
        </>
      )}
    </Stack>
  );
}
