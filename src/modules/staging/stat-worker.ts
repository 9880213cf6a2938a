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

/** Plain JavaScript, so the thread needs no TypeScript loader in development or production. */
const SOURCE = `
const { parentPort } = require('node:worker_threads');
const { lstatSync } = require('node:fs');
parentPort.on('message', ({ id, paths }) => {
  let count = 0;
  let size = 0;
  for (const p of paths) {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (st !== undefined && st.isFile()) {
      count++;
      size += st.size;
    }
  }
  parentPort.postMessage({ id, count, size });
});
`;

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
      worker.postMessage({ id, paths });
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
      worker = new Worker(SOURCE, { eval: true });
    } catch {
      return null;
    }
    worker.unref();
    worker.on('message', (msg: { id: number } & StatTotals) => {
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
