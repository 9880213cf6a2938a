/**
 * Alert statistics as charts: alerts per (Asia/Shanghai) day stacked by type, and the servers
 * with the most alerts, over 7, 14 or 30 days (in the URL). Charts are @mantine/charts over
 * recharts; each also has its numbers as text beside it (today, recovered, open, top server).
 */
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Card, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLiveInvalidation } from '../../api/live-invalidation';
import { alertQueries, type Stats } from '../../api/resources/alerts';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { alertTypeLabel } from '../../i18n/enums';
import { isAlertMessage } from './ActiveAlerts';
import { ALERT_TYPES } from './alert-filters';

const DAYS = [7, 14, 30] as const;
const TYPE_COLORS: Record<string, string> = { cpu: 'red.6', mem: 'blue.6', disk: 'yellow.7', offline: 'gray.6', time_drift: 'violet.6' };
const EXTRA_COLORS = ['teal.6', 'orange.6', 'pink.6', 'cyan.6'];

/** One row per day with a count per type (0 where none), and the types that occur. */
export function perDayByType(s: Pick<Stats, 'daily' | 'daily_types'>): { rows: Array<Record<string, string | number>>; types: string[] } {
  const seen = new Set((s.daily_types ?? []).map((d) => d.alert_type));
  const types = [...ALERT_TYPES.filter((a) => seen.has(a)), ...[...seen].filter((a) => !(ALERT_TYPES as readonly string[]).includes(a)).sort()];
  const rows = s.daily.map((d) => {
    const row: Record<string, string | number> = { day: d.day.slice(5) };
    for (const type of types) row[type] = 0;
    for (const x of s.daily_types ?? []) if (x.day === d.day) row[x.alert_type] = x.count;
    return row;
  });
  return { rows, types };
}

function Figure({ title, help, children }: { title: string; help?: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" component="figure" m={0}>
      <Stack gap={4} mb="sm">
        <Title order={2} size="h5" component="figcaption">
          {title}
        </Title>
        {help && (
          <Text size="xs" c="dimmed">
            {help}
          </Text>
        )}
      </Stack>
      {children}
    </Card>
  );
}

function Number_({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="sm">
      <Text size="xs" c="dimmed" fw={700} tt="uppercase">
        {label}
      </Text>
      <Text fz={24} fw={700} lh={1.2} truncate="end">
        {value}
      </Text>
    </Card>
  );
}

export function AlertStats() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('days'));
  const days = (DAYS as readonly number[]).includes(raw) ? raw : 7;
  const q = useQuery(alertQueries.stats(days));
  useLiveInvalidation([['alerts', 'stats']], isAlertMessage, 2000);
  const chart = q.data ? perDayByType(q.data) : null;
  let extra = 0;
  const series = (chart?.types ?? []).map((type) => ({ name: type, label: alertTypeLabel(type, t), color: TYPE_COLORS[type] ?? EXTRA_COLORS[extra++ % EXTRA_COLORS.length] }));

  return (
    <Stack gap="md">
      <Group gap="sm" align="center">
        <Text size="sm" fw={600} id="alert-stats-days">
          {t('alerts.stats.days')}
        </Text>
        <SegmentedControl
          aria-labelledby="alert-stats-days"
          value={String(days)}
          onChange={(v) =>
            setParams((p) => {
              const out = new URLSearchParams(p);
              if (v === '7') out.delete('days');
              else out.set('days', v);
              return out;
            })
          }
          data={DAYS.map((d) => ({ value: String(d), label: t('alerts.stats.lastDays', { count: d }) }))}
        />
      </Group>
      <ErrorDisplay error={q.error} onRetry={() => void q.refetch()} />
      {q.isPending ? (
        <Skeleton height={280} radius="md" />
      ) : (
        q.data &&
        chart && (
          <>
            <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
              <Number_ label={t('alerts.stats.today')} value={q.data.today} />
              <Number_ label={t('alerts.stats.recoveredToday')} value={q.data.recovered} />
              <Number_ label={t('alerts.stats.activeNow')} value={q.data.active} />
              <Number_ label={t('alerts.stats.topServer')} value={q.data.top_server ?? t('common.notAvailable')} />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              <Figure title={t('alerts.stats.perDay')} help={t('alerts.stats.perDayHelp')}>
                {series.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('alerts.stats.noData')}
                  </Text>
                ) : (
                  <BarChart h={240} data={chart.rows} dataKey="day" type="stacked" series={series} withLegend tickLine="y" yAxisProps={{ allowDecimals: false }} data-testid="alerts-per-day" />
                )}
              </Figure>
              <Figure title={t('alerts.stats.topServers')}>
                {q.data.top_servers.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('alerts.stats.noData')}
                  </Text>
                ) : (
                  <BarChart
                    h={Math.max(120, q.data.top_servers.length * 44)}
                    data={q.data.top_servers.map((s) => ({ server: s.server_name, count: s.count }))}
                    dataKey="server"
                    orientation="vertical"
                    yAxisProps={{ width: 110 }}
                    xAxisProps={{ allowDecimals: false }}
                    series={[{ name: 'count', label: t('alerts.stats.alerts'), color: 'red.6' }]}
                    tickLine="x"
                    data-testid="alerts-top-servers"
                  />
                )}
              </Figure>
            </SimpleGrid>
          </>
        )
      )}
    </Stack>
  );
}
