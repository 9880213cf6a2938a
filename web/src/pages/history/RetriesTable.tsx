/**
 * Retry jobs as a table. At phone width the server, its status and the actions stay as columns;
 * attempts, next attempt and the last error move under the server's name.
 */
import { ActionIcon, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import type { RetryJobView } from '@server/modules/retries/retries.schemas';
import { IconRefresh, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../components/StatusBadge';
import { toneText } from '../../components/status-colors';
import { formatDateTime, formatRelative } from '../../i18n/format';

/** The API's retry job: what it pushes (source → target) to one server, and its attempts. */
export type RetryJob = RetryJobView;

interface RetriesTableProps {
  jobs: RetryJob[];
  now: number;
  /** The job whose action is in flight (its buttons show it). */
  busyId: number | null;
  onRetry: (job: RetryJob) => void;
  onDelete: (job: RetryJob) => void;
}

function NextAttempt({ job, now }: { job: RetryJob; now: number }) {
  const { t, i18n } = useTranslation();
  if (job.status !== 'pending') return <Text span inherit c="dimmed">—</Text>;
  // A job reset by hand has no time: the worker takes it on its next sweep.
  if (!job.next_retry_at || Date.parse(job.next_retry_at) <= now) return <Text span inherit>{t('history.dueNow')}</Text>;
  return (
    <Text span inherit title={formatDateTime(job.next_retry_at, i18n.language)}>
      <time dateTime={job.next_retry_at}>{formatRelative(job.next_retry_at, i18n.language, now)}</time>
    </Text>
  );
}

function Row({ job, now, busyId, onRetry, onDelete }: Omit<RetriesTableProps, 'jobs'> & { job: RetryJob }) {
  const { t } = useTranslation();
  const server = job.server_name ?? `#${job.server_id}`;
  const attempts = t('history.attemptsOf', { count: job.retry_count, max: job.max_retries });
  const busy = busyId === job.id;
  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {server}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace" truncate="end" maw={240} title={job.target_path ?? job.source_path}>
            {job.source_path}
          </Text>
          <Stack gap={4} hiddenFrom="sm" align="flex-start">
            <StatusBadge status={job.status} />
            <Text size="xs" c="dimmed">
              {t('history.attempts')}: {attempts}
              {job.status === 'pending' && (
                <>
                  {' · '}
                  {t('history.nextRetry')}: <NextAttempt job={job} now={now} />
                </>
              )}
            </Text>
            {job.last_error && (
              <Text size="xs" c={toneText('bad')} lineClamp={2}>
                {job.last_error}
              </Text>
            )}
          </Stack>
        </Stack>
      </Table.Td>
      <Table.Td visibleFrom="md">
        <Text span size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {job.source_path}
          {job.target_path ? ` → ${job.target_path}` : ''}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
        <StatusBadge status={job.status} />
      </Table.Td>
      <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
        {attempts}
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <NextAttempt job={job} now={now} />
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm" lineClamp={2} maw={320} title={job.last_error ?? undefined} c={job.last_error ? undefined : 'dimmed'}>
          {job.last_error ?? '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Tooltip label={t('history.retryNow')} withArrow>
            <ActionIcon
              variant="subtle"
              size={40}
              aria-label={t('history.retryNow')}
              loading={busy}
              disabled={job.status === 'running' || (busyId !== null && !busy)}
              onClick={() => onRetry(job)}
            >
              <IconRefresh size={20} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('history.deleteJob')} withArrow>
            <ActionIcon variant="subtle" color="red" size={40} aria-label={t('history.deleteJob')} onClick={() => onDelete(job)}>
              <IconTrash size={20} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function RetriesTable({ jobs, ...rest }: RetriesTableProps) {
  const { t } = useTranslation();
  return (
    <Table aria-label={t('history.retries')} verticalSpacing="xs" fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('history.server')}</Table.Th>
          <Table.Th visibleFrom="md">{t('history.source')}</Table.Th>
          <Table.Th visibleFrom="sm">{t('history.status')}</Table.Th>
          <Table.Th visibleFrom="sm">{t('history.attempts')}</Table.Th>
          <Table.Th visibleFrom="sm">{t('history.nextRetry')}</Table.Th>
          <Table.Th visibleFrom="sm">{t('history.lastError')}</Table.Th>
          <Table.Th ta="right">{t('history.actions')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {jobs.map((job) => (
          <Row key={job.id} job={job} {...rest} />
        ))}
      </Table.Tbody>
    </Table>
  );
}
