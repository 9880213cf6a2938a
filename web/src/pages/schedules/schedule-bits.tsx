/** Small pieces the schedules list and detail share: when a schedule runs, its last result, its switch. */
import { Group, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LiveMessage } from '../../api/socket';
import { scheduleQueries, schedulesApi, type ScheduleRunView, type ScheduleView } from '../../api/resources/schedules';
import { RelativeTime } from '../../components/Time';
import { StatusBadge } from '../../components/StatusBadge';
import { errorText } from '../../i18n/error-text';
import { formatShanghai } from '../../i18n/format';
import { ZonedTimes } from './schedule-time';

/** A scheduled run started or ended somewhere: the schedules' last results may have changed. */
export function changesSchedules(m: LiveMessage): boolean {
  return m.type === 'push_started' || m.type === 'push_complete' || m.type === 'script_complete';
}

/** While a run is going or the next one is close, views of schedules poll (the socket may be down). */
export function pollMs(schedules: ScheduleView[], now = Date.now()): number {
  // A run still "running" hours later was cut off (a worker stopped mid-run): no reason to poll for it.
  const running = (s: ScheduleView) => s.last_result?.status === 'running' && now - Date.parse(s.last_result.started_at) < 3_600_000;
  const soon = schedules.some((s) => running(s) || (s.next_run !== null && Date.parse(s.next_run) - now < 120_000));
  return soon ? 3000 : 30_000;
}

export function WhenText({ s }: { s: ScheduleView }) {
  const { t, i18n } = useTranslation();
  if (s.run_mode === 'once' && s.fire_at) {
    return <Text size="sm">{t('schedules.onceAt', { time: `${formatShanghai(s.fire_at, i18n.language)} (Asia/Shanghai)` })}</Text>;
  }
  return (
    <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
      {t('schedules.cronAt', { expr: s.cron_expr ?? '' })}
    </Text>
  );
}

export function NextRun({ s }: { s: ScheduleView }) {
  const { t } = useTranslation();
  if (!s.next_run) return <Text size="sm" c="dimmed">{t('schedules.noNextRun')}</Text>;
  return <ZonedTimes value={s.next_run} />;
}

export function RunResult({ run }: { run: ScheduleRunView | null | undefined }) {
  const { t } = useTranslation();
  if (!run) return <Text size="sm" c="dimmed">{t('schedules.noRunYet')}</Text>;
  return (
    <Stack gap={2} align="flex-start">
      <Group gap={6} wrap="wrap">
        <StatusBadge status={run.status} />
        <RelativeTime value={run.started_at} shanghai size="xs" />
      </Group>
      {run.total > 0 && <Text size="xs" c="dimmed">{t('schedules.runs.counts', { ok: run.succeeded, total: run.total })}</Text>}
    </Stack>
  );
}

export function EnabledSwitch({ s }: { s: ScheduleView }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => schedulesApi.update(s.id, { enabled }),
    onSuccess: () => client.invalidateQueries({ queryKey: scheduleQueries.all }),
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });
  const checked = toggle.isPending && toggle.variables !== undefined ? toggle.variables : s.enabled;
  return (
    <Switch
      checked={checked}
      disabled={toggle.isPending}
      onChange={(e) => toggle.mutate(e.currentTarget.checked)}
      aria-label={t('schedules.enabledOf', { name: s.name })}
      label={checked ? t('schedules.enabled') : t('schedules.disabled')}
      size="md"
    />
  );
}
