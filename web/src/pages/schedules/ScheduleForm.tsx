/**
 * Create or edit a schedule: a push (a staging directory to servers) or a script (saved or
 * written here), recurring by cron (with the next five runs previewed as typed) or once at an
 * Asia/Shanghai date and time. Servers are chosen as in the push flow (ServersStep). The whole
 * schedule is sent on save; the service re-validates it and its refusals land on their fields.
 */
import {
  Button, Group, NumberInput, Paper, SegmentedControl, Select, Stack, Switch, Text, Textarea, TextInput, Title,
} from '@mantine/core';
import { DatesProvider, DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import 'dayjs/locale/zh-cn';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { staging } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import { scheduleQueries, schedulesApi, type CreateScheduleBody, type ScheduleView } from '../../api/resources/schedules';
import { useStartWork } from '../../api/start-work';
import { applyFieldErrors, ErrorDisplay } from '../../components/ErrorDisplay';
import { syncModeLabel } from '../../i18n/enums';
import { ServersStep } from '../push/ServersStep';
import { StagingDirPicker } from '../push/StagingDirPicker';
import { CronField, cronProblem } from './CronField';
import { shanghaiWallClock } from './schedule-time';

type SyncMode = 'incremental' | 'full' | 'checksum';
const SYNC_MODES: SyncMode[] = ['incremental', 'full', 'checksum'];

interface Values {
  name: string;
  schedule_type: 'push' | 'script';
  run_mode: 'cron' | 'once';
  cron_expr: string;
  fire_at: string | null;
  source_path: string | null;
  target_path: string;
  sync_mode: SyncMode;
  script_source: 'saved' | 'inline';
  script_id: string | null;
  script_content: string;
  exec_timeout: number;
  long_task: boolean;
  enabled: boolean;
}

function initialValues(s?: ScheduleView): Values {
  return {
    name: s?.name ?? '',
    schedule_type: s?.schedule_type ?? 'push',
    // A `once` schedule with only a cron runs at its next match: edit it as the cron it follows.
    run_mode: s ? (s.run_mode === 'cron' || !s.fire_at ? 'cron' : 'once') : 'cron',
    cron_expr: s?.cron_expr ?? '',
    fire_at: shanghaiWallClock(s?.fire_at),
    source_path: s?.source_path ?? null,
    target_path: s?.target_path ?? '',
    sync_mode: (s?.sync_mode as SyncMode) ?? 'incremental',
    script_source: s && s.script_id === null && s.script_content ? 'inline' : 'saved',
    script_id: s?.script_id != null ? String(s.script_id) : null,
    script_content: s?.script_content ?? '',
    exec_timeout: s?.exec_timeout ?? 60,
    long_task: s?.long_task ?? false,
    enabled: s?.enabled ?? true,
  };
}

function toBody(v: Values, serverIds: number[], before?: ScheduleView): CreateScheduleBody {
  const push = v.schedule_type === 'push';
  const saved = v.script_source === 'saved';
  // A `once` schedule that follows a cron (made through the API) stays a one-shot when edited here.
  const onceByCron = before?.run_mode === 'once' && !before.fire_at && v.run_mode === 'cron';
  return {
    name: v.name.trim(),
    schedule_type: v.schedule_type,
    run_mode: onceByCron ? 'once' : v.run_mode,
    cron_expr: v.run_mode === 'cron' ? v.cron_expr.trim() : null,
    // Shanghai wall-clock text: the service reads a time without an offset as Asia/Shanghai.
    fire_at: v.run_mode === 'once' ? v.fire_at : null,
    server_ids: serverIds,
    source_path: push ? v.source_path : null,
    target_path: push ? v.target_path.trim() || null : null,
    sync_mode: v.sync_mode,
    script_id: !push && saved && v.script_id ? Number(v.script_id) : null,
    script_content: !push && !saved ? v.script_content : null,
    exec_timeout: v.exec_timeout,
    long_task: v.long_task,
    enabled: v.enabled,
  };
}

export function ScheduleForm({ schedule }: { schedule?: ScheduleView }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [servers, setServers] = useState<Set<number>>(new Set(schedule?.server_ids ?? []));
  const [serversError, setServersError] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const form = useForm<Values>({
    initialValues: initialValues(schedule),
    validate: {
      name: (v) => (v.trim() ? null : t('schedules.form.nameRequired')),
      cron_expr: (v, all) => (all.run_mode === 'cron' && cronProblem(v) ? t(cronProblem(v)!) : null),
      fire_at: (v, all) => (all.run_mode === 'once' && !v ? t('schedules.form.fireAtRequired') : null),
      source_path: (v, all) => (all.schedule_type === 'push' && !v ? t('schedules.form.sourceRequired') : null),
      script_id: (v, all) => (all.schedule_type === 'script' && all.script_source === 'saved' && !v ? t('schedules.form.scriptRequired') : null),
      script_content: (v, all) => (all.schedule_type === 'script' && all.script_source === 'inline' && !v.trim() ? t('schedules.form.scriptRequired') : null),
    },
  });
  const v = form.values;
  const dirs = useQuery({ queryKey: ['staging-dirs'], queryFn: staging.dirs, enabled: v.schedule_type === 'push' });
  const scripts = useQuery({ ...scheduleQueries.scripts(), enabled: v.schedule_type === 'script' });

  const save = useStartWork({
    work: (key, body: CreateScheduleBody) => (schedule ? schedulesApi.update(schedule.id, body) : schedulesApi.create(body, key)),
    onSuccess: async (saved) => {
      // The saved schedule goes into the cached list at once: its page must not wait for a refetch.
      client.setQueryData(scheduleQueries.list().queryKey, (old) => [...(old ?? []).filter((x) => x.id !== saved.id), saved].sort((a, b) => a.id - b.id));
      await client.invalidateQueries({ queryKey: scheduleQueries.all });
      notifications.show({ color: 'teal', message: t('schedules.saved') });
      void navigate(`/schedules/${saved.id}`);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'cron_invalid') form.setFieldError('cron_expr', t('errors.codes.cron_invalid'));
      else applyFieldErrors(form, err);
    },
  });

  const submit = form.onSubmit((values) => {
    if (servers.size === 0) {
      setServersError(true);
      return;
    }
    save.start(toBody(values, [...servers], schedule));
  });

  return (
    <form
      onSubmit={(e) => {
        setSubmitted(true);
        setServersError(servers.size === 0);
        submit(e);
      }}
      noValidate
    >
      <Stack gap="lg">
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">{t('schedules.form.basics')}</Title>
            <TextInput label={t('schedules.name')} required maxLength={200} {...form.getInputProps('name')} />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="schedule-type-label">{t('schedules.type')}</Text>
              <SegmentedControl
                aria-labelledby="schedule-type-label"
                data={[{ value: 'push', label: t('schedules.types.push') }, { value: 'script', label: t('schedules.types.script') }]}
                {...form.getInputProps('schedule_type')}
                style={{ alignSelf: 'flex-start' }}
              />
            </Stack>
            <Switch label={t('schedules.form.enabled')} {...form.getInputProps('enabled', { type: 'checkbox' })} />
          </Stack>
        </Paper>

        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">{t('schedules.form.timing')}</Title>
            <Stack gap={4}>
              <Text size="sm" fw={500} id="schedule-mode-label">{t('schedules.form.runMode')}</Text>
              <SegmentedControl
                aria-labelledby="schedule-mode-label"
                data={[{ value: 'cron', label: t('schedules.modes.cron') }, { value: 'once', label: t('schedules.modes.once') }]}
                {...form.getInputProps('run_mode')}
                style={{ alignSelf: 'flex-start' }}
              />
            </Stack>
            {v.run_mode === 'cron' ? (
              <CronField
                value={v.cron_expr}
                onChange={(x) => {
                  form.setFieldValue('cron_expr', x);
                  form.clearFieldError('cron_expr');
                }}
                error={form.errors.cron_expr as string | undefined}
                touched={submitted}
              />
            ) : (
              <DatesProvider settings={{ locale: i18n.language === 'zh-CN' ? 'zh-cn' : 'en', firstDayOfWeek: 1 }}>
                <DateTimePicker
                  label={t('schedules.form.fireAt')}
                  description={t('schedules.form.fireAtHelp')}
                  placeholder={t('schedules.form.fireAtPlaceholder')}
                  valueFormat="YYYY-MM-DD HH:mm"
                  required
                  // A modal, not a popover: it has a title (the dialog's name) and suits phones.
                  dropdownType="modal"
                  modalProps={{ title: t('schedules.form.fireAt'), centered: true }}
                  // Mantine's red weekends and grey outside days are below 4.5:1: plain days only.
                  weekendDays={[]}
                  hideOutsideDates
                  minDate={shanghaiWallClock(new Date().toISOString())?.slice(0, 10)}
                  ariaLabels={{
                    nextMonth: t('schedules.picker.nextMonth'), previousMonth: t('schedules.picker.previousMonth'),
                    nextYear: t('schedules.picker.nextYear'), previousYear: t('schedules.picker.previousYear'),
                    nextDecade: t('schedules.picker.nextDecade'), previousDecade: t('schedules.picker.previousDecade'),
                  }}
                  timePickerProps={{ hoursInputLabel: t('schedules.picker.hours'), minutesInputLabel: t('schedules.picker.minutes'), format: '24h' }}
                  submitButtonProps={{ 'aria-label': t('schedules.picker.confirm') }}
                  {...form.getInputProps('fire_at')}
                  style={{ maxWidth: 320 }}
                />
              </DatesProvider>
            )}
          </Stack>
        </Paper>

        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">{t('schedules.form.what')}</Title>
            {v.schedule_type === 'push' ? (
              <>
                <Text size="sm" fw={500}>{t('schedules.form.source')}</Text>
                {v.source_path && <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>{t('schedules.form.currentSource', { path: v.source_path })}</Text>}
                <ErrorDisplay error={dirs.error} onRetry={() => dirs.refetch()} />
                {dirs.data && dirs.data.items.length === 0 && <Text size="sm" c="dimmed">{t('schedules.form.noStaging')}</Text>}
                {dirs.data && dirs.data.items.length > 0 && (
                  <StagingDirPicker dirs={dirs.data.items} value={v.source_path} onChange={(p) => form.setFieldValue('source_path', p)} label={t('schedules.form.source')} />
                )}
                {form.errors.source_path && <Text size="sm" c="var(--mantine-color-error)" role="alert">{form.errors.source_path}</Text>}
                <Group grow wrap="wrap" align="flex-start">
                  <TextInput label={t('schedules.form.targetPath')} description={t('schedules.form.targetHelp')} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} {...form.getInputProps('target_path')} style={{ minWidth: 220 }} />
                  <Select
                    label={t('schedules.form.syncMode')}
                    data={SYNC_MODES.map((m) => ({ value: m, label: syncModeLabel(m, t) }))}
                    allowDeselect={false}
                    {...form.getInputProps('sync_mode')}
                    style={{ minWidth: 180 }}
                  />
                </Group>
              </>
            ) : (
              <>
                <Stack gap={4}>
                  <Text size="sm" fw={500} id="script-source-label">{t('schedules.form.scriptSource')}</Text>
                  <SegmentedControl
                    aria-labelledby="script-source-label"
                    data={[{ value: 'saved', label: t('schedules.form.savedScript') }, { value: 'inline', label: t('schedules.form.inlineScript') }]}
                    {...form.getInputProps('script_source')}
                    style={{ alignSelf: 'flex-start' }}
                  />
                </Stack>
                <ErrorDisplay error={scripts.error} onRetry={() => scripts.refetch()} />
                {v.script_source === 'saved' ? (
                  <Select
                    label={t('schedules.form.pickScript')}
                    placeholder={t('schedules.form.pickScriptPlaceholder')}
                    data={(scripts.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
                    nothingFoundMessage={t('schedules.form.noScripts')}
                    searchable
                    required
                    {...form.getInputProps('script_id')}
                  />
                ) : (
                  <Textarea label={t('schedules.form.content')} autosize minRows={4} maxRows={16} required styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} spellCheck={false} {...form.getInputProps('script_content')} />
                )}
                <Group wrap="wrap" align="flex-end">
                  <NumberInput label={t('schedules.form.execTimeout')} min={1} max={86_400} disabled={v.long_task} {...form.getInputProps('exec_timeout')} style={{ maxWidth: 200 }} />
                  <Switch label={t('schedules.form.longTask')} mb={8} {...form.getInputProps('long_task', { type: 'checkbox' })} />
                </Group>
              </>
            )}
          </Stack>
        </Paper>

        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">{t('schedules.form.servers')}</Title>
            <ServersStep
              selected={servers}
              onChange={(next) => {
                setServers(next);
                if (next.size > 0) setServersError(false);
              }}
            />
            {serversError && <Text size="sm" c="var(--mantine-color-error)" role="alert">{t('schedules.form.serversRequired')}</Text>}
          </Stack>
        </Paper>

        <ErrorDisplay error={save.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate(schedule ? `/schedules/${schedule.id}` : '/schedules')}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.pending} disabled={save.pending}>
            {schedule ? t('schedules.form.save') : t('schedules.form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
