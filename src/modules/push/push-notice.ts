/** The push_failed notification: a batch that closed with at least one failed server. */
import type { NotificationEvent } from '../../platform/notifications/notification-events.js';
import type { BatchCounts, PushRepository } from './push.repository.js';

export type Notify = (event: NotificationEvent) => Promise<unknown>;

/** Fire and forget: the names are read after the batch closed; a failure to read only drops the names. */
export function noticeIfFailed(d: { repo: Pick<PushRepository, 'resultsOf'>; notify?: Notify }, batchId: string, counts: BatchCounts, total: number): void {
  if (!d.notify || counts.failed === 0) return;
  const notify = d.notify;
  void d.repo
    .resultsOf([batchId])
    .then(
      (rows) => rows.filter((r) => r.status === 'failed').map((r) => r.server_name ?? `#${r.server_id}`),
      () => [] as string[],
    )
    .then((servers) => notify({ kind: 'push_failed', batchId, failed: counts.failed, total, servers }))
    .catch(() => undefined);
}
