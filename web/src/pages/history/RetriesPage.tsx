/**
 * Retry jobs: each server that failed in a push gets one, and the background worker tries it
 * again with back-off. Here an operator sees why it failed and when it runs next, runs it now,
 * or deletes it. Polled while a job waits or runs (the worker reports nothing on the socket);
 * a push finishing refetches at once (it may have created jobs).
 */
import { Button, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconCircleCheck, IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { retries } from '../../api/endpoints';
import { pushQueries } from '../../api/resources/push';
import { useStartWork } from '../../api/start-work';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { errorText } from '../../i18n/error-text';
import { EmptyState, Page } from '../../components/Page';
import { useLiveInvalidation } from '../../api/live-invalidation';
import { type RetryJob, RetriesTable } from './RetriesTable';
import { useNow } from '../../components/use-now';

const KEY = pushQueries.retries().queryKey;
/** The worker sweeps every few seconds; a waiting job's status is worth re-reading this often. */
const ACTIVE_POLL_MS = 15_000;

export default function RetriesPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const now = useNow(15_000);
  const [deleting, setDeleting] = useState<RetryJob | null>(null);

  const list = useQuery({
    ...pushQueries.retries(),
    refetchInterval: (q) => (q.state.data?.some((j) => j.status === 'pending' || j.status === 'running') ? ACTIVE_POLL_MS : false),
  });
  useLiveInvalidation([KEY], (m) => m.type === 'push_complete');

  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: KEY }), client.invalidateQueries({ queryKey: ['dashboard'] })]);

  const retry = useStartWork({
    work: (key, job: RetryJob) => retries.retry(job.id, key),
    onSuccess: (_, job) => {
      notifications.show({ color: 'teal', message: `${t('history.retryDone')}: ${job.server_name ?? `#${job.server_id}`}` });
      return refresh();
    },
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });

  const remove = useMutation({
    mutationFn: (job: RetryJob) => retries.remove(job.id),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t('history.deleted') });
      setDeleting(null);
      return refresh();
    },
    // Shown above the dialog, which stays open to try again or cancel.
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });

  const closeDelete = () => {
    setDeleting(null);
    remove.reset();
  };

  return (
    <Page
      title={t('history.retries')}
      actions={
        <Button component={Link} to="/history" variant="default" leftSection={<IconHistory size={18} aria-hidden />}>
          {t('history.title')}
        </Button>
      }
    >
      {list.error && <ErrorDisplay error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending ? (
        <Stack gap="xs" role="status" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={48} />
          ))}
        </Stack>
      ) : list.data && list.data.length > 0 ? (
        <RetriesTable
          jobs={list.data}
          now={now}
          busyId={retry.pending ? (retry.variables?.id ?? null) : null}
          onRetry={(job) => retry.start(job)}
          onDelete={(job) => {
            remove.reset();
            setDeleting(job);
          }}
        />
      ) : (
        list.data && (
          <EmptyState>
            <IconCircleCheck size={32} aria-hidden />
            <Text>{t('history.retriesEmpty')}</Text>
            <Button component={Link} to="/history" variant="light" leftSection={<IconHistory size={16} />}>
              {t('nextStep.viewHistory')}
            </Button>
          </EmptyState>
        )
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('history.deleteJob')}
        message={deleting ? t('history.deleteConfirmFor', { server: deleting.server_name ?? `#${deleting.server_id}` }) : ''}
        confirmLabel={t('history.deleteJob')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={closeDelete}
      />
    </Page>
  );
}
