/**
 * The history of script runs, newest first, a page at a time; filtered by status and by the
 * Asia/Shanghai days they started on. Filters and page live in the URL. A run starting or ending
 * anywhere refetches the list (live socket), and it is polled while a run is listed as running.
 */
import { Anchor, Button, Group, Select, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconCode, IconHistory } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLiveInvalidation } from '../../api/live-invalidation';
import { type RunsFilter, scriptQueries } from '../../api/resources/scripts';
import type { Reply } from '../../api/typed';
import { EmptyState } from '../../components/Page';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { StatusBadge } from '../../components/StatusBadge';
import { useNow } from '../../components/use-now';
import { formatDateTime, formatDuration, formatRelative } from '../../i18n/format';
import { runLabel } from './run-text';

const PAGE_SIZE = 20;
const STATUSES = ['running', 'success', 'partial', 'failed'] as const;
type RunStatus = (typeof STATUSES)[number];
type RunSummary = Reply<'GET /api/scripts/runs'>['items'][number];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function Row({ r, now }: { r: RunSummary; now: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const end = r.finished_at ? Date.parse(r.finished_at) : r.status === 'running' ? now : Number.NaN;
  const duration = Number.isFinite(end) ? formatDuration(Math.max(0, end - Date.parse(r.started_at)), lang) : '—';
  const counts = [t('scripts.countOk', { count: r.succeeded })];
  if (r.failed > 0) counts.push(t('scripts.countFailed', { count: r.failed }));
  const left = r.total - r.succeeded - r.failed;
  if (r.status === 'running' && left > 0) counts.push(t('scripts.countLeft', { count: left }));
  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={2}>
          <Anchor component={Link} to={`/scripts/runs/${encodeURIComponent(r.run_id)}`} size="sm" fw={600} title={formatDateTime(r.started_at, lang)}>
            <time dateTime={r.started_at}>{formatRelative(r.started_at, lang, now)}</time>
          </Anchor>
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {[runLabel(r.label, t), r.operator, `${t('scripts.servers')}: ${r.total}`, duration].join(' · ')}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm" truncate="end" maw={260}>
          {runLabel(r.label, t)}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">{r.operator}</Table.Td>
      <Table.Td>
        <Group gap={6} wrap="wrap">
          <StatusBadge status={r.status} />
          <Text size="xs" c="dimmed">
            {counts.join(' · ')}
          </Text>
        </Group>
      </Table.Td>
      <Table.Td visibleFrom="sm" ta="right">
        {r.total}
      </Table.Td>
      <Table.Td visibleFrom="sm" ta="right" style={{ whiteSpace: 'nowrap' }}>
        {duration}
      </Table.Td>
    </Table.Tr>
  );
}

export function RunsHistory() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const rawStatus = params.get('status');
  const status = (STATUSES as readonly string[]).includes(rawStatus ?? '') ? (rawStatus as RunStatus) : undefined;
  const from = DAY.test(params.get('from') ?? '') ? params.get('from')! : undefined;
  const to = DAY.test(params.get('to') ?? '') ? params.get('to')! : undefined;
  const query: RunsFilter = { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, status, from, to };
  const list = useQuery({
    ...scriptQueries.runs(query),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === 'running') ? 15_000 : false),
  });
  useLiveInvalidation([scriptQueries.runsAll], (m) => m.type === 'script_started' || m.type === 'script_complete');
  const now = useNow(list.data?.items.some((r) => r.status === 'running') ? 1000 : 30_000);

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = Boolean(status || from || to);
  const update = (next: Record<string, string | null>) =>
    setParams((p) => {
      const out = new URLSearchParams(p);
      for (const [k, v] of Object.entries(next)) {
        if (v) out.set(k, v);
        else out.delete(k);
      }
      if (!('page' in next)) out.delete('page');
      return out;
    });

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={t('scripts.status')}
          data={[{ value: '', label: t('scripts.anyStatus') }, ...STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))]}
          value={status ?? ''}
          onChange={(v) => update({ status: v || null })}
          allowDeselect={false}
          w={{ base: '100%', xs: 200 }}
        />
        <TextInput type="date" label={t('scripts.from')} value={from ?? ''} onChange={(e) => update({ from: e.currentTarget.value || null })} w={{ base: '100%', xs: 240 }} />
        <TextInput type="date" label={t('scripts.to')} value={to ?? ''} onChange={(e) => update({ to: e.currentTarget.value || null })} w={{ base: '100%', xs: 240 }} />
        {filtered && (
          <Button variant="subtle" onClick={() => update({ status: null, from: null, to: null })} mih={40}>
            {t('scripts.clearFilters')}
          </Button>
        )}
        {list.data && (
          <Text size="sm" c="dimmed" aria-live="polite" ml="auto">
            {t('common.total', { count: total })}
          </Text>
        )}
      </Group>
      {list.error && <ErrorDisplay error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending ? (
        <Stack gap="xs" role="status" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      ) : list.data && list.data.items.length > 0 ? (
        <Table aria-label={t('scripts.tabHistory')} verticalSpacing="xs" highlightOnHover fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('scripts.started')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('scripts.script')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('scripts.operator')}</Table.Th>
              <Table.Th>{t('scripts.result')}</Table.Th>
              <Table.Th visibleFrom="sm" ta="right">
                {t('scripts.servers')}
              </Table.Th>
              <Table.Th visibleFrom="sm" ta="right">
                {t('scripts.duration')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.items.map((r) => (
              <Row key={r.run_id} r={r} now={now} />
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        list.data && (
          <EmptyState>
            <IconHistory size={32} aria-hidden />
            <Text>{filtered ? t('scripts.runsNoMatch') : t('scripts.runsEmpty')}</Text>
            {filtered ? (
              <Button variant="light" onClick={() => update({ status: null, from: null, to: null })}>
                {t('scripts.clearFilters')}
              </Button>
            ) : (
              <Button component={Link} to="/scripts" leftSection={<IconCode size={16} aria-hidden />}>
                {t('scripts.writeScript')}
              </Button>
            )}
          </EmptyState>
        )
      )}
      {pages > 1 && (
        <Group justify="center" gap="sm">
          <Button variant="default" leftSection={<IconChevronLeft size={16} aria-hidden />} disabled={page <= 1} onClick={() => update({ page: String(page - 1) })} mih={40}>
            {t('scripts.previous')}
          </Button>
          <Text size="sm" aria-live="polite">
            {t('common.page', { page, pages })}
          </Text>
          <Button variant="default" rightSection={<IconChevronRight size={16} aria-hidden />} disabled={page >= pages} onClick={() => update({ page: String(page + 1) })} mih={40}>
            {t('scripts.nextPage')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
