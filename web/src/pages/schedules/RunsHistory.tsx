/**
 * A schedule's runs, newest first, a page at a time (`?page=` in the URL): when it started and
 * which match it was due for, the result with its counts, the push batch (a link to it) or the
 * script run, and the error of a run that could not start. The table scrolls inside its own box
 * at phone width, its first column (when) staying put.
 */
import { Anchor, Button, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { RUNS_PER_PAGE, scheduleQueries, type ScheduleRunView, type ScheduleView } from '../../api/resources/schedules';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState } from '../../components/Page';
import { StatusBadge } from '../../components/StatusBadge';
import { RelativeTime } from '../../components/Time';
import { formatDuration, formatShanghai } from '../../i18n/format';
import { pollMs } from './schedule-bits';

function RunRow({ r }: { r: ScheduleRunView }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const duration = r.finished_at ? formatDuration(Math.max(0, Date.parse(r.finished_at) - Date.parse(r.started_at)), lang) : '—';
  return (
    <Table.Tr data-run={r.id}>
      <Table.Td style={{ position: 'sticky', left: 0, background: 'var(--mantine-color-body)' }}>
        <RelativeTime value={r.started_at} shanghai />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{t('schedules.zoneShanghai', { time: formatShanghai(r.slot, lang) })}</Table.Td>
      <Table.Td>
        <Group gap={6} wrap="wrap">
          <StatusBadge status={r.status} />
          {r.total > 0 && <Text size="xs" c="dimmed">{t('schedules.runs.counts', { ok: r.succeeded, total: r.total })}</Text>}
        </Group>
        {r.error && (
          <Text size="xs" c="var(--mantine-color-error)" mt={4} style={{ wordBreak: 'break-word' }}>
            {t('schedules.runs.error')}: {r.error}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {r.batch_id ? (
          <Anchor component={Link} to={`/history/${encodeURIComponent(r.batch_id)}`} size="sm" ff="monospace" aria-label={`${t('schedules.runs.openBatch')} ${r.batch_id}`}>
            {r.batch_id.slice(0, 8)}
          </Anchor>
        ) : r.run_id ? (
          <Text size="sm" ff="monospace" title={r.run_id}>{r.run_id.slice(0, 8)}</Text>
        ) : (
          '—'
        )}
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>{duration}</Table.Td>
    </Table.Tr>
  );
}

export function RunsHistory({ schedule }: { schedule: ScheduleView }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const runs = useQuery({
    ...scheduleQueries.runs(schedule.id, page),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === 'running') ? 3000 : pollMs([schedule])),
  });
  const total = runs.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / RUNS_PER_PAGE));
  const go = (p: number) =>
    setParams((prev) => {
      const out = new URLSearchParams(prev);
      if (p > 1) out.set('page', String(p));
      else out.delete('page');
      return out;
    });

  if (runs.error) return <ErrorDisplay error={runs.error} onRetry={() => runs.refetch()} />;
  if (!runs.data) return <Skeleton h={120} />;
  if (total === 0) {
    return (
      <EmptyState>
        <Text>{t('schedules.runs.empty')}</Text>
      </EmptyState>
    );
  }
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">{t('common.total', { count: total })}</Text>
      <Table.ScrollContainer minWidth={640}>
        <Table aria-label={t('schedules.historyOf', { name: schedule.name })} verticalSpacing="xs" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th style={{ position: 'sticky', left: 0, background: 'var(--mantine-color-body)' }}>{t('schedules.runs.started')}</Table.Th>
              <Table.Th>{t('schedules.runs.slot')}</Table.Th>
              <Table.Th>{t('schedules.runs.result')}</Table.Th>
              <Table.Th>{schedule.schedule_type === 'push' ? t('schedules.runs.batch') : t('schedules.runs.runId')}</Table.Th>
              <Table.Th ta="right">{t('schedules.runs.duration')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.data.items.map((r) => (
              <RunRow key={r.id} r={r} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && (
        <Group justify="space-between">
          <Button variant="default" leftSection={<IconChevronLeft size={16} aria-hidden />} disabled={page <= 1} onClick={() => go(page - 1)}>
            {t('schedules.runs.previous')}
          </Button>
          <Text size="sm">{t('common.page', { page, pages })}</Text>
          <Button variant="default" rightSection={<IconChevronRight size={16} aria-hidden />} disabled={page >= pages} onClick={() => go(page + 1)}>
            {t('schedules.runs.next')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
