/**
 * How far a whole batch has come, as one number: the average of every server's own progress
 * (finished — succeeded, failed or skipped — counts 100, running its rsync percent, not started
 * 0). Counting only finished servers would show 0 % while every server is half-way. Bytes are
 * not summed: rsync reports a server's total only as a percentage, not in bytes.
 */
import type { BatchStream } from '../../api/batch-stream';

export interface Overall {
  /** 0–100, the whole batch. */
  percent: number;
  /** Shares of the bar (0–100 each) by outcome; `running` is the part still moving. */
  success: number;
  failed: number;
  skipped: number;
  running: number;
}

export function overallProgress(s: BatchStream): Overall {
  const servers = Object.values(s.servers);
  const total = Math.max(s.total, servers.length);
  const out: Overall = { percent: 0, success: 0, failed: 0, skipped: 0, running: 0 };
  if (total === 0) return out;
  const share = 100 / total;
  for (const v of servers) {
    if (v.status === 'success') out.success += share;
    else if (v.status === 'failed') out.failed += share;
    else if (v.status === 'skipped') out.skipped += share;
    else if (v.status === 'running') out.running += (Math.min(100, Math.max(0, v.percent ?? 0)) / 100) * share;
  }
  // Servers failed before they had a row (unknown ids) are counted by the batch, not listed.
  const listedFailed = servers.filter((v) => v.status === 'failed').length;
  if (s.failed > listedFailed) out.failed += (s.failed - listedFailed) * share;
  out.percent = Math.min(100, out.success + out.failed + out.skipped + out.running);
  return out;
}
