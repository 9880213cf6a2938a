/**
 * The body of the stat helper thread (see stat-worker.ts): counts the regular files among the
 * paths it is sent and sums their sizes with synchronous lstat, which is what makes it fast.
 */
import { lstatSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

export interface StatRequest {
  id: number;
  paths: string[];
}

export interface StatReply {
  id: number;
  count: number;
  size: number;
}

parentPort?.on('message', ({ id, paths }: StatRequest) => {
  let count = 0;
  let size = 0;
  for (const p of paths) {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (st?.isFile()) {
      count++;
      size += st.size;
    }
  }
  const reply: StatReply = { id, count, size };
  parentPort?.postMessage(reply);
});
