/**
 * Monitoring: every server's last CPU, memory and disk with sparklines of its recent heartbeats,
 * load, clock drift and agent version, sortable; the thresholds and notify_* switches that act on
 * those readings; and installing the agent (token + one-liner, or over SSH). Readings refresh
 * with the agent's 30 s rhythm, and at once when an alert opens or recovers.
 */
import { SimpleGrid, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLiveInvalidation } from '../../api/live-invalidation';
import { monitoringQueries } from '../../api/resources/monitoring';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Page } from '../../components/Page';
import { AgentInstallPanel } from './AgentInstallPanel';
import { MetricsTable } from './MetricsTable';
import { MonitoringSettings, NUMBER_KEYS, settingValue } from './MonitoringSettings';

export default function MonitoringPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const settings = useQuery(monitoringQueries.settings());
  useLiveInvalidation([['monitoring', 'metrics']], (m) => m.type === 'alert' || m.type === 'recovery', 1000);

  const threshold = (key: string) => {
    const v = Number(settingValue(settings.data, key));
    return Number.isInteger(v) && v >= 1 && v <= 100 ? v : (NUMBER_KEYS.find((d) => d.key === key)?.fallback ?? 90);
  };
  const install = Number(params.get('install')) || null;
  const selectInstall = (id: number | null) => {
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        if (id) out.set('install', String(id));
        else out.delete('install');
        return out;
      },
      { replace: true },
    );
    if (id) requestAnimationFrame(() => document.getElementById('install')?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
  };

  return (
    <Page title={t('monitoring.title')}>
      <Text size="sm" c="dimmed">
        {t('monitoring.refreshEvery')}
      </Text>
      <MetricsTable
        thresholds={{ cpu: threshold('cpu_alert_threshold'), mem: threshold('mem_alert_threshold'), disk: threshold('disk_alert_threshold') }}
        onInstall={selectInstall}
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <ErrorDisplay error={settings.error} onRetry={() => void settings.refetch()} />
        {settings.data && <MonitoringSettings settings={settings.data} />}
        <AgentInstallPanel selected={install} onSelect={selectInstall} />
      </SimpleGrid>
    </Page>
  );
}
