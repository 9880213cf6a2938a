/**
 * The alerts open now. Live: an `alert` or `recovery` on the socket refetches the list (the
 * dashboard's approach), with a slow poll as the fallback when the socket is down.
 */
import { Anchor, Button, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconAdjustments, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLiveInvalidation } from '../../api/live-invalidation';
import { alertQueries } from '../../api/resources/alerts';
import type { LiveMessage } from '../../api/socket';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState } from '../../components/Page';
import { StatusBadge } from '../../components/StatusBadge';
import { RelativeTime } from '../../components/Time';
import { alertTypeLabel } from '../../i18n/enums';
import { alertValue } from './alert-filters';

export const isAlertMessage = (m: LiveMessage) => m.type === 'alert' || m.type === 'recovery';

export function ActiveAlerts() {
  const { t, i18n } = useTranslation();
  const q = useQuery({ ...alertQueries.active(), refetchInterval: 60_000 });
  useLiveInvalidation([alertQueries.all], isAlertMessage, 200);
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed">
          {t('alerts.active.live')}
        </Text>
        {q.data && (
          <Text size="sm" fw={600} aria-live="polite">
            {t('alerts.active.count', { count: q.data.active })}
          </Text>
        )}
      </Group>
      <ErrorDisplay error={q.error} onRetry={() => void q.refetch()} />
      {q.isPending ? (
        <Stack gap="xs" role="status" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      ) : q.data && q.data.items.length === 0 ? (
        <EmptyState>
          <IconCircleCheck size={32} aria-hidden />
          <Text>{t('alerts.active.empty')}</Text>
          <Button component={Link} to="/monitoring" variant="light" leftSection={<IconAdjustments size={16} aria-hidden />}>
            {t('alerts.active.thresholds')}
          </Button>
        </EmptyState>
      ) : (
        q.data && (
          <>
            <Table.ScrollContainer minWidth={320} type="native" tabIndex={0} role="region" aria-label={t('alerts.active.heading')}>
              <Table verticalSpacing="xs" highlightOnHover aria-label={t('alerts.active.heading')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('alerts.server')}</Table.Th>
                    <Table.Th>{t('alerts.type')}</Table.Th>
                    <Table.Th ta="right">{t('alerts.value')}</Table.Th>
                    <Table.Th>{t('alerts.since')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {q.data.items.map((a) => (
                    <Table.Tr key={a.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/alerts/history?server=${a.server_id}`} size="sm" fw={600}>
                          {a.server_name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <StatusBadge status="active" label={alertTypeLabel(a.alert_type, t)} />
                        </Group>
                      </Table.Td>
                      <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                        {alertValue(a.alert_type, a.value, t, i18n.language)}
                      </Table.Td>
                      <Table.Td>
                        <RelativeTime value={a.since} shanghai />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {q.data.active > q.data.items.length && (
              <Text size="xs" c="dimmed">
                {t('alerts.active.more', { shown: q.data.items.length, total: q.data.active })}
              </Text>
            )}
          </>
        )
      )}
    </Stack>
  );
}
