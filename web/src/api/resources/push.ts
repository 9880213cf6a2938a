/**
 * Queries of pushes (batches, their summaries, retry jobs), keyed under `['push', …]`: a push that
 * starts, finishes or is retried invalidates `pushQueries.all` and every view of it refreshes.
 */
import type { BatchSummaryQuery } from '@server/modules/push/push.schemas';
import { queryOptions } from '@tanstack/react-query';
import { push, retries } from '../endpoints';

export const pushQueries = {
  all: ['push'] as const,
  summaries: (q: BatchSummaryQuery) => queryOptions({ queryKey: ['push', 'summaries', q] as const, queryFn: () => push.summaries(q) }),
  batch: (batchId: string) => queryOptions({ queryKey: ['push', 'batch', batchId] as const, queryFn: () => push.batch(batchId) }),
  retries: (limit = 200) => queryOptions({ queryKey: ['push', 'retries', limit] as const, queryFn: () => retries.list(limit) }),
};
