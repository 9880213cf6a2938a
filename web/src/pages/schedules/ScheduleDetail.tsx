/**
 * One schedule: what and when it runs, its next run (both zones), enable/disable, edit, delete,
 * and its run history a page at a time (the page in the URL). There is no GET of one schedule in
 * the API: the list (one small query, shared with the list page's cache) is the source.
 */
import { Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronLeft, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useLiveInvalidation } from '../../api/live-invalidation';
import { scheduleQueries, schedulesApi, type ScheduleView } from '../../api/resources/schedules';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Page } from '../../components/Page';
import { errorText } from '../../i18n/error-text';
import { syncModeLabel } from '../../i18n/enums';
import { RunsHistory } from './RunsHistory';
import { changesSchedules, EnabledSwitch, NextRun, pollMs, RunResult, WhenText } from './schedule-bits';
import { ScheduleForm } from './ScheduleForm';

function useSchedule(): { id: number; schedule: ScheduleView | undefined; list: ReturnType<typeof useQuery<ScheduleView[]>> } {
  const { id: raw } = useParams();
  const id = Number(raw);
  const list = useQuery({ ...scheduleQueries.list(), refetchInterval: (q) => pollMs(q.state.data ?? []) });
  return { id, schedule: list.data?.find((s) => s.id === id), list };
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/schedules" size="sm">
      <Group gap={4}>
        <IconChevronLeft size={14} aria-hidden />
        {t('schedules.backToList')}
      </Group>
    </Anchor>
  );
}

function Missing({ list }: { list: ReturnType<typeof useSchedule>['list'] }) {
  const { t } = useTranslation();
  if (list.error) return <ErrorDisplay error={list.error} onRetry={() => list.refetch()} />;
  if (list.isLoading) return <Skeleton h={160} />;
  return <Text>{t('schedules.notFound')}</Text>;
}

export function ScheduleNew() {
  const { t } = useTranslation();
  return (
    <Page title={t('schedules.form.newTitle')}>
      <BackLink />
      <ScheduleForm />
    </Page>
  );
}

export function ScheduleEdit() {
  const { t } = useTranslation();
  const { schedule, list } = useSchedule();
  return (
    <Page title={t('schedules.form.editTitle')}>
      <BackLink />
      {/* Keyed by id: a form opened on one schedule never keeps another's values. */}
      {schedule ? <ScheduleForm key={schedule.id} schedule={schedule} /> : <Missing list={list} />}
    </Page>
  );
}

export function DeleteScheduleDialog({ schedule, onClose, onDeleted }: { schedule: ScheduleView | null; onClose: () => void; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) => schedulesApi.remove(id),
    onSuccess: async (_, id) => {
      onClose();
      // Gone from the cached list first, so no view asks for the deleted schedule's runs (a 404).
      client.setQueryData(scheduleQueries.list().queryKey, (old) => old?.filter((x) => x.id !== id));
      await client.cancelQueries({ queryKey: ['schedules', 'runs', id] });
      client.removeQueries({ queryKey: ['schedules', 'runs', id] });
      onDeleted?.();
      notifications.show({ color: 'teal', message: t('schedules.deleted') });
      await client.invalidateQueries({ queryKey: scheduleQueries.list().queryKey });
    },
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });
  return (
    <ConfirmDialog
      opened={schedule !== null}
      title={t('schedules.deleteTitle')}
      message={t('schedules.deleteMessage', { name: schedule?.name ?? '' })}
      confirmLabel={t('schedules.deleteOf', { name: schedule?.name ?? '' })}
      loading={remove.isPending}
      onConfirm={() => schedule && remove.mutate(schedule.id)}
      onClose={onClose}
    />
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" fw={600} c="dimmed">{label}</Text>
      {children}
    </Stack>
  );
}

export function ScheduleDetail() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id, schedule: s, list } = useSchedule();
  const [deleting, setDeleting] = useState(false);
  useLiveInvalidation([scheduleQueries.all], changesSchedules);
  if (!s) {
    return (
      <Page title={t('schedules.title')}>
        <BackLink />
        <Missing list={list} />
      </Page>
    );
  }
  const actions = (
    <>
      <Button component={Link} to={`/schedules/${id}/edit`} variant="default" leftSection={<IconPencil size={16} aria-hidden />}>
        {t('common.edit')}
      </Button>
      <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)}>
        {t('common.delete')}
      </Button>
    </>
  );
  return (
    <Page title={s.name} actions={actions}>
      <BackLink />
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
          <Field label={t('schedules.type')}>
            <Text size="sm">
              {t(`schedules.types.${s.schedule_type}`)} · {t('schedules.servers', { count: s.server_ids.length })}
              {s.schedule_type === 'push' ? ` · ${syncModeLabel(s.sync_mode, t)}` : ''}
            </Text>
            {s.schedule_type === 'push' && (
              <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {s.source_path} → {s.target_path ?? '…'}
              </Text>
            )}
          </Field>
          <Field label={t('schedules.when')}>
            <WhenText s={s} />
          </Field>
          <Field label={t('schedules.nextRun')}>
            <NextRun s={s} />
          </Field>
          <Field label={t('schedules.lastResult')}>
            <RunResult run={s.last_result} />
          </Field>
          <Field label={t('schedules.enabled')}>
            <EnabledSwitch s={s} />
          </Field>
        </SimpleGrid>
      </Paper>
      <Title order={2} size="h3">
        {t('schedules.history')}
      </Title>
      <RunsHistory schedule={s} />
      <DeleteScheduleDialog schedule={deleting ? s : null} onClose={() => setDeleting(false)} onDeleted={() => navigate('/schedules')} />
    </Page>
  );
}
