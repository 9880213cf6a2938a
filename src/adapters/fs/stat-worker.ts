/**
 * A helper thread for `lstat`. Sizing a directory of 10,000 files takes 10,000 lstat calls (a few
 * µs each, most of validate-source-path's time). The async `fs.lstat` is slower still, with a
 * thread-pool round trip per call, so instead the walk stats half of the files itself and hands
 * the other half to this thread in one message: the halves run on two cores at once.
 *
 * The thread starts on first use and does not keep the process alive. If it cannot start or dies,
 * `sizeOf` rejects and callers stat those files themselves.
 */
import { Worker } from 'node:worker_threads';
import type { StatReply, StatRequest } from './stat-thread.js';

/**
 * Running from the TypeScript sources (vitest, tsx), the thread's module is `.ts`: a small
 * bootstrap registers tsx's loader in the thread first. The built service starts the `.js`.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const TS_BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import('tsx/esm/api').then(({ register }) => { register(); return import(workerData.threadUrl); });
`;

function startThread(): Worker {
  const url = new URL(`./stat-thread.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url);
  return FROM_SOURCE ? new Worker(TS_BOOTSTRAP, { eval: true, workerData: { threadUrl: url.href } }) : new Worker(url);
}

export interface StatTotals {
  /** Regular files among the paths (vanished ones and anything else are not counted). */
  count: number;
  size: number;
}

interface Pending {
  resolve: (totals: StatTotals) => void;
  reject: (err: Error) => void;
}

export class StatWorker {
  private worker: Worker | null = null;
  private closed = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  /** Counts the regular files among `paths` and sums their sizes, on the helper thread. */
  sizeOf(paths: string[]): Promise<StatTotals> {
    return new Promise((resolve, reject) => {
      const worker = this.ensure();
      if (!worker) {
        reject(new Error('stat worker unavailable'));
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      const request: StatRequest = { id, paths };
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('stat worker closed'));
    await worker?.terminate();
  }

  private ensure(): Worker | null {
    if (this.closed) return null;
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      worker = startThread();
    } catch {
      return null;
    }
    worker.unref();
    worker.on('message', (msg: StatReply) => {
      const waiting = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      waiting?.resolve({ count: msg.count, size: msg.size });
    });
    // A dead thread fails what it held; the next call starts a new one.
    const gone = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(err);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`stat worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private failAll(err: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(err);
  }
}
