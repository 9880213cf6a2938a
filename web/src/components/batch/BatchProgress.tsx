/**
 * A push batch, live: the overall count, then one row per server with rsync's own progress
 * (percent, bytes, rate, time left) while it runs and its outcome and error when done. Rows
 * needing attention (failed, then running) come first; a filter narrows big batches.
 */
import { Group, Paper, Progress, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchStream, ServerProgress } from '../../api/batch-stream';
import { formatBytes, formatDuration, formatPercent, formatRate } from '../../i18n/format';
import { statusColor, toneText } from '../status-colors';
import { overallProgress } from './overall';
import { StatusBadge } from '../StatusBadge';

// Failures first, then what is still moving: what an operator acts on comes before what went well.
const ORDER: Record<string, number> = { failed: 0, running: 1, pending: 2, skipped: 3, success: 4 };
/** Rows rendered at once; a filter shows the rest. */
const MAX_ROWS = 300;

type Filter = 'all' | 'running' | 'failed' | 'done';

function matches(f: Filter, s: ServerProgress): boolean {
  if (f === 'all') return true;
  if (f === 'done') return s.status === 'success' || s.status === 'skipped';
  return s.status === f;
}

export function BatchProgress({ stream }: { stream: BatchStream }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [filter, setFilter] = useState<Filter>('all');
  const all = useMemo(
    () => Object.values(stream.servers).sort((a, b) => (ORDER[a.status] ?? 9) - (ORDER[b.status] ?? 9) || (a.server_name ?? '').localeCompare(b.server_name ?? '')),
    [stream.servers],
  );
  const rows = all.filter((s) => matches(filter, s));
  const done = stream.succeeded + stream.failed + stream.skipped;
  const total = Math.max(stream.total, all.length);
  const overall = overallProgress(stream);

  return (
    <Stack gap="sm">
      <Paper withBorder p="md">
        <Stack gap={6}>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap="xs">
              <StatusBadge status={stream.status} size="md" />
              <Text fw={500} aria-live="polite">
                {t('push.overall', { done, count: total })}
              </Text>
            </Group>
            {stream.failed > 0 && (
              <Text c={toneText('bad')} fw={500} size="sm">
                {t('push.failedOf', { failed: stream.failed, total })}
              </Text>
            )}
          </Group>
          {stream.status === 'cancelled' && (
            <Text size="sm" fw={500} role="status">
              {t('flow.cancelledSkipped', { count: stream.skipped })}
            </Text>
          )}
          <Group gap="xs" wrap="nowrap">
            {/* One bar for the batch: finished servers by outcome, then what the running ones have done. */}
            <Progress.Root size="lg" style={{ flex: 1 }} role="progressbar" aria-label={t('flow.overallProgress')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.floor(overall.percent)}>
              <Progress.Section withAria={false} value={overall.success} color={statusColor('success')} />
              <Progress.Section withAria={false} value={overall.failed} color={statusColor('failed')} />
              <Progress.Section withAria={false} value={overall.skipped} color={statusColor('skipped')} />
              <Progress.Section withAria={false} value={overall.running} color={statusColor('running')} striped={stream.status === 'running'} animated={stream.status === 'running'} />
            </Progress.Root>
            <Text size="sm" fw={500} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
              {t('flow.overallPercent', { percent: formatPercent(overall.percent, lang) })}
            </Text>
          </Group>
        </Stack>
      </Paper>
      {all.length > 8 && (
        <SegmentedControl
          value={filter}
          onChange={(v) => setFilter(v as Filter)}
          aria-label={t('history.result')}
          data={[
            { value: 'all', label: t('common.all') },
            { value: 'running', label: t('status.running') },
            { value: 'failed', label: t('status.failed') },
            { value: 'done', label: t('status.completed') },
          ]}
        />
      )}
      <Table.ScrollContainer minWidth={320}>
        <Table aria-label={t('history.results')} verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('history.server')}</Table.Th>
              <Table.Th>{t('history.result')}</Table.Th>
              <Table.Th w="40%">{t('push.stepRun')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.slice(0, MAX_ROWS).map((s) => (
              <Table.Tr key={s.server_id} data-server={s.server_id}>
                <Table.Td style={{ wordBreak: 'break-all' }}>{s.server_name ?? `#${s.server_id}`}</Table.Td>
                <Table.Td>
                  <StatusBadge status={s.status} />
                </Table.Td>
                <Table.Td>
                  <ServerCell s={s} lang={lang} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length > MAX_ROWS && (
        <Text size="sm" c="dimmed">
          {t('push.filesTruncated', { count: rows.length - MAX_ROWS })}
        </Text>
      )}
    </Stack>
  );
}

function ServerCell({ s, lang }: { s: ServerProgress; lang: string }) {
  const { t } = useTranslation();
  const name = s.server_name ?? `#${s.server_id}`;
  if (s.status === 'running') {
    const pct = s.percent ?? 0;
    return (
      <Stack gap={2}>
        <Progress value={pct} aria-label={`${name}: ${pct}%`} animated={s.percent === null} striped={s.percent === null} />
        <Text size="xs" c="dimmed">
          {pct}% · {t('push.transferred', { bytes: formatBytes(s.bytes_transferred, lang) })}
          {s.rate_bps ? ` · ${formatRate(s.rate_bps, lang)}` : ''}
          {s.eta_s ? ` · ${t('push.eta', { time: formatDuration(s.eta_s * 1000, lang) })}` : ''}
        </Text>
      </Stack>
    );
  }
  if (s.status === 'failed' || s.error) {
    return (
      <Text size="xs" c={toneText('bad')} style={{ wordBreak: 'break-word' }}>
        {/* A busy target is not a fault of the server: say so before the message naming the writer. */}
        {s.error_code === 'target_busy' && <strong>{t('push.targetBusy')}: </strong>}
        {s.error ?? t('status.failed')}
      </Text>
    );
  }
  if (s.status === 'success') {
    return (
      <Text size="xs" c="dimmed">
        {t('push.files', { count: s.files_transferred ?? 0 })} · {formatBytes(s.bytes_transferred, lang)}
        {s.duration_ms ? ` · ${formatDuration(s.duration_ms, lang)}` : ''}
      </Text>
    );
  }
  return (
    <Text size="xs" c="dimmed">
      —
    </Text>
  );
}
