/**
 * Alerts: what is open now (live), the history with its filters and CSV export, and statistics.
 * Each view has its own URL (`/alerts`, `/alerts/history`, `/alerts/stats`) with its state in
 * the query string, so a filtered history can be pasted to a colleague. The views are links
 * (a small navigation with `aria-current`), not ARIA tabs: each is a page of its own.
 */
import { Button, Group } from '@mantine/core';
import { IconAlertTriangle, IconChartBar, IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { Page } from '../../components/Page';
import { ActiveAlerts } from './ActiveAlerts';
import { AlertHistory } from './AlertHistory';
import { AlertStats } from './AlertStats';

const VIEWS = [
  { key: 'active', to: '/alerts', icon: <IconAlertTriangle size={16} aria-hidden /> },
  { key: 'history', to: '/alerts/history', icon: <IconHistory size={16} aria-hidden /> },
  { key: 'stats', to: '/alerts/stats', icon: <IconChartBar size={16} aria-hidden /> },
] as const;

export default function AlertsPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const sub = location.pathname.replace(/^\/alerts\/?/, '').split('/')[0];
  const current = sub === 'history' || sub === 'stats' ? sub : 'active';
  return (
    <Page title={t('alerts.title')}>
      <Group component="nav" aria-label={t('alerts.tabs.label')} gap={4}>
        {VIEWS.map((v) => (
          <Button
            key={v.key}
            component={Link}
            to={v.to}
            variant={current === v.key ? 'light' : 'subtle'}
            color={current === v.key ? undefined : 'gray'}
            leftSection={v.icon}
            aria-current={current === v.key ? 'page' : undefined}
            mih={40}
          >
            {t(`alerts.tabs.${v.key}`)}
          </Button>
        ))}
      </Group>
      <Routes>
        <Route index element={<ActiveAlerts />} />
        <Route path="history" element={<AlertHistory />} />
        <Route path="stats" element={<AlertStats />} />
        <Route path="*" element={<Navigate to="/alerts" replace />} />
      </Routes>
    </Page>
  );
}
