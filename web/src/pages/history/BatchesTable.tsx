/**
 * The push batches as a table. At phone width only the start (the link) and the result stay as
 * columns; operator, mode, size and duration move under the start so nothing scrolls sideways.
 */
import { Anchor, Group, Stack, Table, Text } from '@mantine/core';
import type { BatchSummary } from '@server/modules/push/push.schemas';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusBadge } from '../../components/StatusBadge';
import { formatDateTime, formatDuration, formatRelative } from '../../i18n/format';
import { useNow } from '../../components/use-now';
import { syncModeLabel } from '../../i18n/enums';

type T = (key: string, o?: Record<string, unknown>) => string;

/** "3 ok · 1 failed": the outcome in words next to the badge (zero counts other than ok omitted). */
function countsLabel(b: Pick<BatchSummary, 'status' | 'total' | 'succeeded' | 'failed' | 'skipped'>, t: T): string {
  const parts = [t('history.countOk', { count: b.succeeded })];
  if (b.failed > 0) parts.push(t('history.countFailed', { count: b.failed }));
  if (b.skipped > 0) parts.push(t('history.countSkipped', { count: b.skipped }));
  const left = b.total - b.succeeded - b.failed - b.skipped;
  if (b.status === 'running' && left > 0) parts.push(t('history.countLeft', { count: left }));
  return parts.join(' · ');
}

function durationOf(b: BatchSummary, now: number, lang: string): string {
  const start = Date.parse(b.started_at);
  const end = b.finished_at ? Date.parse(b.finished_at) : b.status === 'running' ? now : Number.NaN;
  return Number.isFinite(end - start) ? formatDuration(Math.max(0, end - start), lang) : '—';
}

function Row({ b, now }: { b: BatchSummary; now: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const duration = durationOf(b, now, lang);
  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={2}>
          <Anchor component={Link} to={`/history/${encodeURIComponent(b.batch_id)}`} size="sm" fw={600} title={formatDateTime(b.started_at, lang)}>
            <time dateTime={b.started_at}>{formatRelative(b.started_at, lang, now)}</time>
          </Anchor>
          <Text size="xs" c="dimmed" ff="monospace" truncate="end" maw={220}>
            {b.batch_id}
          </Text>
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {[b.operator ?? '—', syncModeLabel(b.sync_mode, t), `${t('history.servers')}: ${b.total}`, duration].join(' · ')}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td visibleFrom="sm">{b.operator ?? '—'}</Table.Td>
      <Table.Td visibleFrom="md">
        <Text size="sm" ff="monospace" truncate="end" maw={260} title={b.source_path}>
          {b.source_path}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">{syncModeLabel(b.sync_mode, t)}</Table.Td>
      <Table.Td>
        <Group gap={6} wrap="wrap">
          <StatusBadge status={b.status} />
          <Text size="xs" c="dimmed">
            {countsLabel(b, t)}
          </Text>
        </Group>
      </Table.Td>
      <Table.Td visibleFrom="sm" ta="right">
        {b.total}
      </Table.Td>
      <Table.Td visibleFrom="sm" ta="right" style={{ whiteSpace: 'nowrap' }}>
        {duration}
      </Table.Td>
    </Table.Tr>
  );
}

export function BatchesTable({ items }: { items: BatchSummary[] }) {
  const { t } = useTranslation();
  // Ticks every second only while a batch runs (its duration grows); otherwise twice a minute.
  const now = useNow(items.some((b) => b.status === 'running') ? 1000 : 30_000);
  return (
    <Table aria-label={t('history.batches')} verticalSpacing="xs" highlightOnHover fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('history.started')}</Table.Th>
          <Table.Th visibleFrom="sm">{t('history.operator')}</Table.Th>
          <Table.Th visibleFrom="md">{t('history.source')}</Table.Th>
          <Table.Th visibleFrom="sm">{t('history.mode')}</Table.Th>
          <Table.Th>{t('history.result')}</Table.Th>
          <Table.Th visibleFrom="sm" ta="right">
            {t('history.servers')}
          </Table.Th>
          <Table.Th visibleFrom="sm" ta="right">
            {t('history.duration')}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((b) => (
          <Row key={b.batch_id} b={b} now={now} />
        ))}
      </Table.Tbody>
    </Table>
  );
}
