/**
 * What an operator checks first, live: servers by agent status and by SSH reachability, the
 * alerts open now, the last pushes with their outcome, and the retry jobs that ran out of
 * attempts. An empty card offers its next step as a button.
 */
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { DashboardView } from '@server/modules/dashboard/dashboard.schemas';
import { IconCloudUpload, IconPlugConnected, IconPlugConnectedX, IconPlugX, IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { dashboard } from '../../api/endpoints';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Page } from '../../components/Page';
import { AgentStatusBadge, StatusBadge } from '../../components/StatusBadge';
import { RelativeTime } from '../../components/Time';
import { alertTypeLabel } from '../../i18n/enums';
import { useLiveInvalidation } from '../../api/live-invalidation';

const SSH_LOOK = {
  failing: { color: 'red', icon: <IconPlugConnectedX size={14} aria-hidden /> },
  never: { color: 'gray', icon: <IconPlugX size={14} aria-hidden /> },
  reachable: { color: 'teal', icon: <IconPlugConnected size={14} aria-hidden /> },
};

function ServersCard({ s }: { s: DashboardView['servers'] }) {
  const { t } = useTranslation();
  const count = (n: number) => (
    <Text fz={28} fw={700} lh={1}>
      {n}
    </Text>
  );
  const agentCell = (status: 'online' | 'offline' | 'unknown', n: number) => (
    <Anchor component={Link} to={`/servers?status=${status}`} underline="never" c="inherit" key={status}>
      <Stack gap={2} align="flex-start">
        {count(n)}
        <AgentStatusBadge status={status} />
      </Stack>
    </Anchor>
  );
  const sshCell = (key: 'failing' | 'reachable' | 'never', n: number) => (
    <Stack gap={2} align="flex-start" key={key}>
      {count(n)}
      <Badge color={SSH_LOOK[key].color} variant="light" size="sm" radius="sm" leftSection={SSH_LOOK[key].icon} styles={{ label: { textTransform: 'none' } }}>
        {t(`reach.${key}`)}
      </Badge>
    </Stack>
  );
  // Both rows share three columns, so the counts line up on every width.
  const row = (label: string, cells: ReactNode[]) => (
    <Stack gap={4} role="group" aria-label={label}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase">
        {label}
      </Text>
      <SimpleGrid cols={3} spacing="xs">
        {cells}
      </SimpleGrid>
    </Stack>
  );
  return (
    <DashCard
      title={t('dashboard.servers')}
      aside={
        <Text size="sm" c="dimmed">
          {t('common.total', { count: s.total })}
        </Text>
      }
    >
      {s.total === 0 ? (
        <EmptyNext text={t('nextStep.serversEmpty')} to="/servers?new=1" icon={<IconPlus size={16} />} action={t('nextStep.addServer')} />
      ) : (
        // Two signals, counted apart: the agent's heartbeats, and the service's own SSH contacts.
        <Stack gap="sm">
          {row(t('reach.agent'), [agentCell('offline', s.offline), agentCell('unknown', s.no_agent), agentCell('online', s.online)])}
          {row(t('reach.ssh'), [sshCell('failing', s.ssh.failing), sshCell('never', s.ssh.never), sshCell('reachable', s.ssh.reachable)])}
        </Stack>
      )}
    </DashCard>
  );
}

/** An empty card says what is missing and offers the step that fills it. */
function EmptyNext({ text, to, icon, action }: { text: string; to: string; icon: ReactNode; action: string }) {
  return (
    <Stack gap="xs" align="flex-start">
      <Text size="sm" c="dimmed">
        {text}
      </Text>
      <Button component={Link} to={to} variant="light" size="sm" leftSection={icon}>
        {action}
      </Button>
    </Stack>
  );
}

/** A dashboard card: its title and, on the right, a count, a badge or a link to the full page. */
function DashCard({ title, aside, children }: { title: string; aside: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder radius="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {aside}
      </Group>
      {children}
    </Card>
  );
}

function AlertsCard({ a }: { a: DashboardView['alerts'] }) {
  const { t } = useTranslation();
  return (
    <DashCard
      title={t('dashboard.activeAlerts')}
      aside={a.active > 0 && <StatusBadge status="active" />}
    >
      {a.items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('dashboard.noAlerts')}
        </Text>
      ) : (
        <Stack gap={6}>
          {a.items.map((x) => (
            <Group key={x.id} justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" truncate="end">
                <Text span fw={600}>
                  {x.server_name}
                </Text>{' '}
                {alertTypeLabel(x.alert_type, t)}
                {x.value !== null && ` ${Math.round(x.value)}%`}
              </Text>
              <RelativeTime value={x.since} />
            </Group>
          ))}
          {a.active > a.items.length && (
            <Text size="xs" c="dimmed">
              {t('common.total', { count: a.active })}
            </Text>
          )}
        </Stack>
      )}
    </DashCard>
  );
}

function PushesCard({ p }: { p: DashboardView['pushes'] }) {
  const { t } = useTranslation();
  return (
    <DashCard
      title={t('dashboard.lastPushes')}
      aside={
        <Anchor component={Link} to="/history" size="sm">
          {t('dashboard.viewAll')}
        </Anchor>
      }
    >
      {p.length === 0 ? (
        <EmptyNext text={t('nextStep.pushesEmpty')} to="/push" icon={<IconCloudUpload size={16} />} action={t('nextStep.startPush')} />
      ) : (
        // A list, not a table: each push wraps onto two lines on a phone instead of clipping.
        <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('dashboard.lastPushes')}>
          {p.map((b) => (
            <Group key={b.batch_id} component="li" justify="space-between" wrap="wrap" gap={6} py={6} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
              <Group gap="xs" wrap="nowrap" miw={0}>
                <StatusBadge status={b.status} />
                <Anchor component={Link} to={`/history/${encodeURIComponent(b.batch_id)}`} ff="monospace" size="sm">
                  {b.batch_id.slice(0, 8)}
                </Anchor>
              </Group>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm">{b.failed > 0 ? t('push.failedOf', { failed: b.failed, total: b.total }) : t('common.total', { count: b.total })}</Text>
                <RelativeTime value={b.started_at} />
              </Group>
            </Group>
          ))}
        </Stack>
      )}
    </DashCard>
  );
}

function RetriesCard({ r }: { r: DashboardView['retries'] }) {
  const { t } = useTranslation();
  return (
    <DashCard
      title={t('dashboard.retryJobs')}
      aside={
        <Anchor component={Link} to="/retries" size="sm">
          {t('dashboard.viewAll')}
        </Anchor>
      }
    >
      <Group gap="md" mb="sm">
        {(['pending', 'running', 'failed'] as const).map((s) => (
          <Group key={s} gap={6}>
            <Text fw={700}>{r[s]}</Text>
            <StatusBadge status={s} size="xs" />
          </Group>
        ))}
      </Group>
      {r.recent_failed.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('dashboard.noFailedJobs')}
        </Text>
      ) : (
        <Stack gap={6}>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase">
            {t('dashboard.failedJobs')}
          </Text>
          {r.recent_failed.map((j) => (
            <Text key={j.id} size="sm" lineClamp={2}>
              <Text span fw={600}>
                {j.server_name ?? `#${j.server_id}`}
              </Text>{' '}
              {j.last_error}
            </Text>
          ))}
        </Stack>
      )}
    </DashCard>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['dashboard'], queryFn: dashboard.get, refetchInterval: 60_000 });
  useLiveInvalidation([['dashboard']], (m) => m.type === 'alert' || m.type === 'recovery' || m.type === 'push_complete' || m.type === 'push_started');
  return (
    <Page
      title={t('dashboard.title')}
      actions={
        <Button component={Link} to="/push" leftSection={<IconCloudUpload size={18} />}>
          {t('dashboard.newPush')}
        </Button>
      }
    >
      <ErrorDisplay error={q.error} onRetry={() => void q.refetch()} />
      {q.isPending ? (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} h={160} radius="md" />
          ))}
        </SimpleGrid>
      ) : q.data ? (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <ServersCard s={q.data.servers} />
          <AlertsCard a={q.data.alerts} />
          <PushesCard p={q.data.pushes} />
          <RetriesCard r={q.data.retries} />
        </SimpleGrid>
      ) : null}
    </Page>
  );
}
