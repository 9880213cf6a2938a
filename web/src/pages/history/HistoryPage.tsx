/**
 * Push history: every batch, newest first, a page at a time (the page and the status filter live
 * in the URL, so a link or the back button returns to the same view). Live: a push starting or
 * finishing anywhere refetches the list, and while a batch runs it is polled as a fallback.
 */
import { Button, Group, Select, Skeleton, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { BatchStatus } from '@server/modules/push/push.schemas';
import { IconChevronLeft, IconChevronRight, IconCloudUpload, IconHistory } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { LiveMessage } from '../../api/socket';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState, Page } from '../../components/Page';
import { useLiveInvalidation } from '../../api/live-invalidation';
import { BatchesTable } from './BatchesTable';
import { pushQueries } from '../../api/resources/push';

const PAGE_SIZE = 20;
const STATUSES: BatchStatus[] = ['running', 'completed', 'partial', 'failed', 'cancelled'];
/** Polling while a batch runs: the socket may be down, the list must still move. */
const RUNNING_POLL_MS = 15_000;

/** A batch started, finished, or one of its servers finished (the counts change). */
export function changesBatches(m: LiveMessage): boolean {
  if (m.type === 'push_started' || m.type === 'push_complete') return true;
  return m.type === 'push_progress' && m.status !== undefined && m.status !== 'running';
}

function isBatchStatus(s: string | null): s is BatchStatus {
  return s !== null && (STATUSES as string[]).includes(s);
}

export default function HistoryPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const rawStatus = params.get('status');
  const status = isBatchStatus(rawStatus) ? rawStatus : undefined;
  const query = { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, status };

  const list = useQuery({
    ...pushQueries.summaries(query),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((b) => b.status === 'running') ? RUNNING_POLL_MS : false),
  });
  useLiveInvalidation([['push', 'summaries']], changesBatches);

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  const update = (next: { page?: number; status?: string | null }) => {
    setParams((p) => {
      const out = new URLSearchParams(p);
      if (next.status !== undefined) {
        if (next.status) out.set('status', next.status);
        else out.delete('status');
      }
      const n = next.page ?? 1;
      if (n > 1) out.set('page', String(n));
      else out.delete('page');
      return out;
    });
  };

  // A page past the end (batches were deleted, or an old link): show the last one instead.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the answer changes
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && page > pages) update({ page: pages });
  }, [list.data, list.isPlaceholderData, page, pages]);

  const statusOptions = [
    { value: '', label: t('history.anyStatus') },
    ...STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
  ];

  return (
    <Page
      title={t('history.title')}
      actions={
        <Button component={Link} to="/push" leftSection={<IconCloudUpload size={18} aria-hidden />} variant="light">
          {t('history.newPush')}
        </Button>
      }
    >
      <Group justify="space-between" align="flex-end" gap="sm">
        <Select
          label={t('history.status')}
          data={statusOptions}
          value={status ?? ''}
          onChange={(v) => update({ status: v || null })}
          allowDeselect={false}
          w={{ base: '100%', xs: 220 }}
        />
        {list.data && (
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('common.total', { count: total })}
          </Text>
        )}
      </Group>
      {list.error && <ErrorDisplay error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending ? (
        <Stack gap="xs" role="status" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      ) : list.data && list.data.items.length > 0 ? (
        <BatchesTable items={list.data.items} />
      ) : (
        list.data && (
          <EmptyState>
            <IconHistory size={32} aria-hidden />
            <Text>{status ? t('history.noMatch') : t('history.empty')}</Text>
            {status ? (
              <Button variant="light" onClick={() => update({ status: null, page: 1 })}>
                {t('history.anyStatus')}
              </Button>
            ) : (
              <Button component={Link} to="/push" leftSection={<IconCloudUpload size={16} />}>
                {t('nextStep.startPush')}
              </Button>
            )}
          </EmptyState>
        )
      )}
      {pages > 1 && (
        <Group justify="center" gap="sm">
          <Button
            variant="default"
            leftSection={<IconChevronLeft size={16} aria-hidden />}
            disabled={page <= 1}
            onClick={() => update({ page: page - 1 })}
            mih={40}
          >
            {t('history.previous')}
          </Button>
          <Text size="sm" aria-live="polite">
            {t('common.page', { page: Math.min(page, pages), pages })}
          </Text>
          <Button
            variant="default"
            rightSection={<IconChevronRight size={16} aria-hidden />}
            disabled={page >= pages}
            onClick={() => update({ page: page + 1 })}
            mih={40}
          >
            {t('history.nextPage')}
          </Button>
        </Group>
      )}
    </Page>
  );
}
