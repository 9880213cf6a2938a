/**
 * Alert history with every filter of the spec (type, server, alerts or recoveries, Asia/Shanghai
 * days), a page at a time, all of it in the URL; and the CSV export of exactly these filters
 * (the service streams every matching row, not only this page).
 */
import { Button, Group, Select, SimpleGrid, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { IconChevronLeft, IconChevronRight, IconDownload, IconFilterOff, IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLatestSearchParams } from '../../components/use-latest-search-params';
import { useLiveInvalidation } from '../../api/live-invalidation';
import { alertQueries, downloadAlertCsv } from '../../api/resources/alerts';
import { serverQueries } from '../../api/resources/servers';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState } from '../../components/Page';
import { StatusBadge } from '../../components/StatusBadge';
import { RelativeTime } from '../../components/Time';
import { alertTypeLabel } from '../../i18n/enums';
import { isAlertMessage } from './ActiveAlerts';
import { ALERT_TYPES, type AlertFilterState, alertValue, hasFilters, PAGE_SIZE, readFilters, toQuery, writeFilters } from './alert-filters';

function ServerFilter({ value, knownName, onChange }: { value: number | null; knownName: string | undefined; onChange: (id: number | null) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const list = useQuery(serverQueries.search({ q: debounced || undefined, limit: 100 }));
  const options = [{ value: '', label: t('alerts.history.anyServer') }, ...(list.data?.items ?? []).map((s) => ({ value: String(s.id), label: s.name }))];
  if (value !== null && !options.some((o) => o.value === String(value))) options.push({ value: String(value), label: knownName ?? `#${value}` });
  return (
    <Select
      label={t('alerts.server')}
      data={options}
      value={value === null ? '' : String(value)}
      onChange={(v) => onChange(v ? Number(v) : null)}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      allowDeselect={false}
      nothingFoundMessage={t('nav.paletteEmpty')}
      limit={100}
    />
  );
}

export function AlertHistory() {
  const { t, i18n } = useTranslation();
  const [params, write] = useLatestSearchParams();
  const f = readFilters(params);
  const filters = toQuery(f);
  const list = useQuery(alertQueries.history({ ...filters, page: f.page, per_page: PAGE_SIZE }));
  useLiveInvalidation([['alerts', 'history']], isAlertMessage, 1000);
  const exporting = useMutation({ mutationFn: () => downloadAlertCsv(filters) });
  const update = (next: Partial<AlertFilterState>) => write((p) => writeFilters(p, next));
  const pages = list.data?.pages ?? 1;
  const serverName = f.server !== null ? list.data?.items.find((i) => i.server_id === f.server)?.server_name : undefined;

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm" role="group" aria-label={t('alerts.history.filters')}>
        <Select
          label={t('alerts.type')}
          data={[{ value: '', label: t('alerts.history.anyType') }, ...ALERT_TYPES.map((a) => ({ value: a, label: alertTypeLabel(a, t) }))]}
          value={f.type}
          onChange={(v) => update({ type: v ?? '' })}
          allowDeselect={false}
        />
        <ServerFilter value={f.server} knownName={serverName} onChange={(server) => update({ server })} />
        <Select
          label={t('alerts.history.status')}
          data={[
            { value: '', label: t('alerts.history.anyStatus') },
            { value: 'active', label: t('alerts.history.onlyAlerts') },
            { value: 'recovered', label: t('alerts.history.onlyRecoveries') },
          ]}
          value={f.status}
          onChange={(v) => update({ status: (v ?? '') as AlertFilterState['status'] })}
          allowDeselect={false}
        />
        <TextInput type="date" label={t('alerts.history.dateFrom')} value={f.from} max={f.to || undefined} onChange={(e) => update({ from: e.currentTarget.value })} />
        <TextInput type="date" label={t('alerts.history.dateTo')} value={f.to} min={f.from || undefined} onChange={(e) => update({ to: e.currentTarget.value })} />
      </SimpleGrid>
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          <Button
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => exporting.mutate()}
            loading={exporting.isPending}
            variant="light"
            title={t('alerts.history.exportHelp')}
          >
            {t('alerts.history.export')}
          </Button>
          {hasFilters(f) && (
            <Button variant="subtle" leftSection={<IconFilterOff size={16} aria-hidden />} onClick={() => write(() => new URLSearchParams())}>
              {t('alerts.history.clear')}
            </Button>
          )}
        </Group>
        {list.data && (
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('common.total', { count: list.data.total })}
          </Text>
        )}
      </Group>
      <ErrorDisplay error={exporting.error} />
      <ErrorDisplay error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Stack gap="xs" role="status" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height={40} />
          ))}
        </Stack>
      ) : list.data && list.data.items.length === 0 ? (
        <EmptyState>
          <IconHistory size={32} aria-hidden />
          <Text>{hasFilters(f) ? t('alerts.history.noMatch') : t('alerts.history.empty')}</Text>
          {hasFilters(f) && (
            <Button variant="light" onClick={() => write(() => new URLSearchParams())}>
              {t('alerts.history.clear')}
            </Button>
          )}
        </EmptyState>
      ) : (
        list.data && (
          <>
            <Text size="xs" c="dimmed">
              {t('alerts.history.timesShanghai')}
            </Text>
            {/* Scrolls by itself only if ever wider than the screen; focusable so a keyboard can scroll it. */}
            <Table.ScrollContainer minWidth={330} type="native" tabIndex={0} role="region" aria-label={t('alerts.history.table')}>
              <Table verticalSpacing={6} highlightOnHover stickyHeader aria-label={t('alerts.history.table')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('alerts.time')}</Table.Th>
                    <Table.Th>{t('alerts.server')}</Table.Th>
                    <Table.Th visibleFrom="sm">{t('alerts.type')}</Table.Th>
                    <Table.Th visibleFrom="sm" ta="right">
                      {t('alerts.value')}
                    </Table.Th>
                    <Table.Th>{t('alerts.event')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data.items.map((a) => (
                    <Table.Tr key={a.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <RelativeTime value={a.created_at} shanghai />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" fw={600}>
                          {a.server_name}
                        </Text>
                        {/* On a phone the type and value move under the server, so nothing scrolls sideways. */}
                        <Text size="xs" c="dimmed" hiddenFrom="sm">
                          {alertTypeLabel(a.alert_type, t)} · {alertValue(a.alert_type, a.value, t, i18n.language)}
                        </Text>
                      </Table.Td>
                      <Table.Td visibleFrom="sm">{alertTypeLabel(a.alert_type, t)}</Table.Td>
                      <Table.Td visibleFrom="sm" ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                        {alertValue(a.alert_type, a.value, t, i18n.language)}
                      </Table.Td>
                      <Table.Td>
                        {a.is_recovery ? <StatusBadge status="recovered" size="xs" /> : <StatusBadge status="active" size="xs" label={t('alerts.eventAlert')} />}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )
      )}
      {pages > 1 && (
        <Group justify="center" gap="sm">
          <Button variant="default" leftSection={<IconChevronLeft size={16} aria-hidden />} disabled={f.page <= 1} onClick={() => update({ page: f.page - 1 })} mih={40}>
            {t('alerts.history.previous')}
          </Button>
          <Text size="sm" aria-live="polite">
            {t('common.page', { page: Math.min(f.page, pages), pages })}
          </Text>
          <Button variant="default" rightSection={<IconChevronRight size={16} aria-hidden />} disabled={f.page >= pages} onClick={() => update({ page: f.page + 1 })} mih={40}>
            {t('alerts.history.next')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
