/**
 * A page of servers with their last agent reading, sortable by any column (sort, order, filter and
 * page in the URL). The service filters, sorts and pages (a fleet of 10,000 is one page of 50 and
 * its readings, not 300,000 points); the page shown stays while the next one loads. On a phone
 * the table scrolls inside its own box with the server column sticky, and a "Sort by" select
 * stands in for header clicks.
 */
import { ActionIcon, Anchor, Button, Group, Select, Skeleton, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconChevronLeft, IconChevronRight, IconPlus, IconSearch, IconTerminal2 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLatestSearchParams } from '../../components/use-latest-search-params';
import { monitoringQueries } from '../../api/resources/monitoring';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState } from '../../components/Page';
import { AgentStatusBadge } from '../../components/StatusBadge';
import { RelativeTime } from '../../components/Time';
import { MetricCell, NoReading } from './MetricCell';
import { defaultOrder, readSort, SORT_KEYS, type SortKey } from './monitoring-sort';

const PAGE_SIZE = 50;
export interface Thresholds {
  cpu: number;
  mem: number;
  disk: number;
}

const LABEL_KEY: Record<SortKey, string> = {
  status: 'monitoring.status',
  name: 'monitoring.server',
  cpu: 'monitoring.cpu',
  mem: 'monitoring.mem',
  disk: 'monitoring.disk',
  load: 'monitoring.load',
  drift: 'monitoring.drift',
  version: 'monitoring.version',
  last_heartbeat: 'monitoring.lastHeartbeat',
};

const STICKY = { position: 'sticky', left: 0, zIndex: 1, background: 'var(--mantine-color-body)' } as const;

export function MetricsTable({ thresholds, onInstall }: { thresholds: Thresholds; onInstall: (id: number) => void }) {
  const { t, i18n } = useTranslation();
  const [params, write] = useLatestSearchParams();
  const { key, order } = readSort(params);
  const filter = params.get('q') ?? '';
  // Changes may depend on the params last written (a second click before the re-render still toggles).
  type Changes = Record<string, string | null>;
  const set = (changesOf: Changes | ((current: URLSearchParams) => Changes)) =>
    write((out) => {
      const changes = typeof changesOf === 'function' ? changesOf(out) : changesOf;
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === '') out.delete(k);
        else out.set(k, v);
      }
      if (!('page' in changes)) out.delete('page');
      return out;
    }, { replace: true });
  const sortBy = (k: SortKey) => {
    set((current) => {
      const now = readSort(current);
      const nextOrder = k === now.key ? (now.order === 'asc' ? 'desc' : 'asc') : defaultOrder(k);
      return { sort: k === 'status' ? null : k, order: nextOrder === 'asc' ? null : 'desc' };
    });
  };

  const [needle] = useDebouncedValue(filter.trim(), 250);
  const asked = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const metrics = useQuery(
    monitoringQueries.metrics({ points: 30, q: needle || undefined, sort: key, order, limit: PAGE_SIZE, offset: (asked - 1) * PAGE_SIZE }),
  );
  const total = metrics.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(pages, asked);
  const rows = metrics.data?.items ?? [];
  // A page past the end (the fleet shrank, an old link): go to the last one there is.
  const pastEnd = metrics.data !== undefined && total > 0 && asked > pages;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `set` is new each render; this runs when the page falls past the end
  useEffect(() => {
    if (pastEnd) set({ page: String(pages) });
  }, [pastEnd, pages]);

  const header = (k: SortKey, align: 'left' | 'right' = 'left', extra?: object): ReactNode => {
    const active = key === k;
    const Icon = active ? (order === 'asc' ? IconArrowUp : IconArrowDown) : IconArrowsSort;
    return (
      <Table.Th ta={align} aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined} style={{ whiteSpace: 'nowrap', ...extra }}>
        <UnstyledButton onClick={() => sortBy(k)} aria-label={t('monitoring.sortColumn', { column: t(LABEL_KEY[k]) })} mih={32} fz="sm" fw={700}>
          <Group gap={4} wrap="nowrap" justify={align === 'right' ? 'flex-end' : 'flex-start'}>
            {t(LABEL_KEY[k])}
            <Icon size={14} aria-hidden style={{ opacity: active ? 1 : 0.4 }} />
          </Group>
        </UnstyledButton>
      </Table.Th>
    );
  };

  if (metrics.isPending || (metrics.isError && !metrics.data)) {
    return (
      <>
        <ErrorDisplay error={metrics.error} onRetry={() => void metrics.refetch()} />
        {metrics.isPending && (
          <Stack gap="xs" role="status" aria-busy="true" aria-label={t('common.loading')}>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={44} />
            ))}
          </Stack>
        )}
      </>
    );
  }

  // No server at all (not merely none matching the filter): say how to add one.
  if (total === 0 && !needle && !filter.trim()) {
    return (
      <EmptyState>
        <Text>{t('monitoring.empty')}</Text>
        <Button component={Link} to="/servers?new=1" leftSection={<IconPlus size={16} aria-hidden />}>
          {t('monitoring.addServer')}
        </Button>
      </EmptyState>
    );
  }

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={t('monitoring.filter')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={filter}
          onChange={(e) => set({ q: e.currentTarget.value })}
          w={{ base: '100%', xs: 240 }}
        />
        <Select
          label={t('monitoring.sortBy')}
          data={SORT_KEYS.map((k) => ({ value: k, label: t(LABEL_KEY[k]) }))}
          value={key}
          onChange={(v) => v && set({ sort: v === 'status' ? null : v, order: defaultOrder(v as SortKey) === 'asc' ? null : 'desc' })}
          allowDeselect={false}
          w={{ base: 'calc(100% - 56px)', xs: 200 }}
        />
        <ActionIcon
          variant="default"
          size={40}
          onClick={() => set((current) => ({ order: readSort(current).order === 'asc' ? 'desc' : null }))}
          aria-label={`${t('monitoring.sortOrder')}: ${order === 'asc' ? t('monitoring.ascending') : t('monitoring.descending')}`}
        >
          {order === 'asc' ? <IconArrowUp size={18} aria-hidden /> : <IconArrowDown size={18} aria-hidden />}
        </ActionIcon>
        <Text size="sm" c="dimmed" ml="auto" aria-live="polite">
          {t('common.total', { count: total })}
        </Text>
      </Group>
      <ErrorDisplay error={metrics.error} onRetry={() => void metrics.refetch()} />
      {rows.length === 0 ? (
        <EmptyState>
          <Text>{t('monitoring.noMatch')}</Text>
        </EmptyState>
      ) : (
        // Wider than a phone: it scrolls inside its own box (focusable, so the keyboard can scroll it), the server column sticky.
        <Table.ScrollContainer minWidth={880} type="native" tabIndex={0} role="region" aria-label={t('monitoring.table')}>
          <Table verticalSpacing={6} highlightOnHover stickyHeader aria-label={t('monitoring.table')}>
            <Table.Thead>
              <Table.Tr>
                {header('name', 'left', { ...STICKY, zIndex: 2 })}
                {header('status')}
                {header('cpu', 'right')}
                {header('mem', 'right')}
                {header('disk', 'right')}
                {header('load', 'right')}
                {header('drift', 'right')}
                {header('version')}
                {header('last_heartbeat')}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((s) => {
                const pts = (m: 'cpu' | 'mem' | 'disk') => s.points.map((p) => p[m]);
                const drift = s.last?.drift_s ?? null;
                return (
                  <Table.Tr key={s.server_id} data-server={s.name}>
                    <Table.Td style={STICKY}>
                      <Stack gap={0} maw={180}>
                        <Text size="sm" fw={600} truncate="end">
                          {s.name}
                        </Text>
                        <Text size="xs" c="dimmed" ff="monospace" truncate="end">
                          {s.host}
                        </Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={4} align="flex-start">
                        <AgentStatusBadge status={s.status} size="xs" />
                        {!s.last && (
                          <Anchor component="button" type="button" size="xs" onClick={() => onInstall(s.server_id)}>
                            <Group gap={2} wrap="nowrap" component="span">
                              <IconTerminal2 size={12} aria-hidden />
                              {t('monitoring.installAgent')}
                            </Group>
                          </Anchor>
                        )}
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <MetricCell label={t('monitoring.cpu')} value={s.last?.cpu ?? null} points={pts('cpu')} threshold={thresholds.cpu} color="blue.6" />
                    </Table.Td>
                    <Table.Td>
                      <MetricCell label={t('monitoring.mem')} value={s.last?.mem ?? null} points={pts('mem')} threshold={thresholds.mem} color="grape.6" />
                    </Table.Td>
                    <Table.Td>
                      <MetricCell label={t('monitoring.disk')} value={s.last?.disk ?? null} points={pts('disk')} threshold={thresholds.disk} color="teal.6" />
                    </Table.Td>
                    <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {s.last?.load != null ? new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }).format(s.last.load) : <NoReading />}
                    </Table.Td>
                    <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                      {drift === null ? (
                        <NoReading />
                      ) : (
                        <Text span size="sm" c={Math.abs(drift) > 60 ? 'red' : undefined} fw={Math.abs(drift) > 60 ? 700 : undefined} title={Math.abs(drift) > 60 ? t('monitoring.driftHigh') : undefined}>
                          {Math.abs(drift) > 60 && '⚠ '}
                          {t('monitoring.driftSeconds', { value: new Intl.NumberFormat(i18n.language, { signDisplay: 'exceptZero' }).format(drift) })}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {s.last?.version ? (
                        <Text size="sm" ff="monospace">
                          {s.last.version}
                        </Text>
                      ) : (
                        <Text size="sm" c="dimmed">
                          —
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <RelativeTime value={s.last_heartbeat_at} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && (
        <Group justify="center" gap="sm">
          <Button variant="default" leftSection={<IconChevronLeft size={16} aria-hidden />} disabled={page <= 1} onClick={() => set({ page: String(page - 1) })} mih={40}>
            {t('monitoring.previous')}
          </Button>
          <Text size="sm">{t('common.page', { page, pages })}</Text>
          <Button variant="default" rightSection={<IconChevronRight size={16} aria-hidden />} disabled={page >= pages} onClick={() => set({ page: String(page + 1) })} mih={40}>
            {t('monitoring.next')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
