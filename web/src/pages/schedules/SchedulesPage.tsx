/**
 * Schedules (`/schedules/*`): the list (next run in Asia/Shanghai and the browser's zone, last
 * result, enable switch), `new`, and per schedule its page with the run history (`:id`) and its
 * edit form (`:id/edit`). Each is a URL, so a schedule or its history can be pasted to a colleague.
 */
import { ActionIcon, Anchor, Badge, Button, Card, Group, Skeleton, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconCalendarPlus, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Route, Routes } from 'react-router';
import { useLiveInvalidation } from '../../api/live-invalidation';
import { scheduleQueries, type ScheduleView } from '../../api/resources/schedules';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState, Page } from '../../components/Page';
import { DeleteScheduleDialog, ScheduleDetail, ScheduleEdit, ScheduleNew } from './ScheduleDetail';
import { changesSchedules, EnabledSwitch, NextRun, pollMs, RunResult, WhenText } from './schedule-bits';

export default function SchedulesPage() {
  return (
    <Routes>
      <Route index element={<ScheduleList />} />
      <Route path="new" element={<ScheduleNew />} />
      <Route path=":id" element={<ScheduleDetail />} />
      <Route path=":id/edit" element={<ScheduleEdit />} />
    </Routes>
  );
}

function TypeBadge({ s }: { s: ScheduleView }) {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color="gray" size="sm" radius="sm" styles={{ label: { textTransform: 'none' } }}>
      {t(`schedules.types.${s.schedule_type}`)}
    </Badge>
  );
}

function RowActions({ s, onDelete }: { s: ScheduleView; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={t('common.edit')}>
        <ActionIcon component={Link} to={`/schedules/${s.id}/edit`} variant="subtle" size={40} aria-label={t('schedules.editOf', { name: s.name })}>
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('common.delete')}>
        <ActionIcon variant="subtle" color="red" size={40} onClick={onDelete} aria-label={t('schedules.deleteOf', { name: s.name })}>
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function NameCell({ s }: { s: ScheduleView }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Anchor component={Link} to={`/schedules/${s.id}`} fw={600} size="sm" style={{ wordBreak: 'break-word' }}>
        {s.name}
      </Anchor>
      <Group gap={6}>
        <TypeBadge s={s} />
        <Text size="xs" c="dimmed">{t('schedules.servers', { count: s.server_ids.length })}</Text>
      </Group>
    </Stack>
  );
}

function ScheduleList() {
  const { t } = useTranslation();
  const list = useQuery({ ...scheduleQueries.list(), refetchInterval: (q) => pollMs(q.state.data ?? []) });
  useLiveInvalidation([scheduleQueries.all], changesSchedules);
  const [deleting, setDeleting] = useState<ScheduleView | null>(null);
  const items = list.data ?? [];
  const add = (
    <Button component={Link} to="/schedules/new" leftSection={<IconCalendarPlus size={16} aria-hidden />}>
      {t('schedules.add')}
    </Button>
  );

  return (
    <Page title={t('schedules.title')} actions={add}>
      <ErrorDisplay error={list.error} onRetry={() => list.refetch()} />
      {list.isLoading && <Skeleton h={120} />}
      {list.data && items.length === 0 && (
        <EmptyState>
          <Text>{t('schedules.empty')}</Text>
          {add}
        </EmptyState>
      )}
      {items.length > 0 && (
        <>
          <Table aria-label={t('schedules.listLabel')} verticalSpacing="xs" highlightOnHover fz="sm" visibleFrom="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('schedules.name')}</Table.Th>
                <Table.Th>{t('schedules.when')}</Table.Th>
                <Table.Th>{t('schedules.nextRun')}</Table.Th>
                <Table.Th>{t('schedules.lastResult')}</Table.Th>
                <Table.Th>{t('schedules.enabled')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('schedules.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((s) => (
                <Table.Tr key={s.id} data-schedule={s.id}>
                  <Table.Td><NameCell s={s} /></Table.Td>
                  <Table.Td maw={220}><WhenText s={s} /></Table.Td>
                  <Table.Td><NextRun s={s} /></Table.Td>
                  <Table.Td><RunResult run={s.last_result} /></Table.Td>
                  <Table.Td><EnabledSwitch s={s} /></Table.Td>
                  <Table.Td><RowActions s={s} onDelete={() => setDeleting(s)} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {/* Phones: a card per schedule (a row has too many fields for 390 px). */}
          <Stack gap="sm" hiddenFrom="sm" component="ul" aria-label={t('schedules.listLabel')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {items.map((s) => (
              <Card key={s.id} withBorder padding="sm" component="li" data-schedule={s.id}>
                <Stack gap="xs">
                  <Group justify="space-between" align="flex-start" wrap="nowrap">
                    <NameCell s={s} />
                    <RowActions s={s} onDelete={() => setDeleting(s)} />
                  </Group>
                  <WhenText s={s} />
                  <Stack gap={2}>
                    <Text size="xs" fw={600}>{t('schedules.nextRun')}</Text>
                    <NextRun s={s} />
                  </Stack>
                  <Stack gap={2}>
                    <Text size="xs" fw={600}>{t('schedules.lastResult')}</Text>
                    <RunResult run={s.last_result} />
                  </Stack>
                  <EnabledSwitch s={s} />
                </Stack>
              </Card>
            ))}
          </Stack>
        </>
      )}
      <DeleteScheduleDialog schedule={deleting} onClose={() => setDeleting(null)} />
    </Page>
  );
}
