/**
 * Heartbeat times are coalesced in memory and written once a second in one statement, instead
 * of one UPDATE per request. A change of status (first heartbeat, back from offline) is written
 * at once, so `status` is never stale; only the time of an already-online server may lag ≤ 1 s.
 */
import type { Logger } from '../../core/logger.js';
import type { AgentServer } from './agent-tokens.js';
import type { AgentServerStore } from '../servers/index.js';

export const FLUSH_INTERVAL_MS = 1_000;

export interface HeartbeatWriterDeps {
  repo: Pick<AgentServerStore, 'markOnline' | 'touch'>;
  log: Logger;
  /** Servers that no longer exist (deleted while their agent still posts). */
  onMissing?: (ids: number[]) => void;
  intervalMs?: number;
}

export class HeartbeatWriter {
  private pending = new Map<number, string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private lastErrorLogAt = 0;

  constructor(private readonly d: HeartbeatWriterDeps) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.d.intervalMs ?? FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Records a heartbeat; `writeNow` for a status change (only then is there a promise to await). */
  record(server: AgentServer, at: string, writeNow: boolean): Promise<void> | undefined {
    if (!writeNow && server.status === 'online') {
      this.pending.set(server.id, at);
      return undefined;
    }
    return this.writeThrough(server, at);
  }

  private async writeThrough(server: AgentServer, at: string): Promise<void> {
    try {
      await this.d.repo.markOnline(server.id, at);
      server.status = 'online';
      this.pending.delete(server.id);
    } catch (err) {
      // The batch retries it; the agent's reading is still evaluated.
      this.pending.set(server.id, at);
      this.logError(err);
    }
  }

  /** Writes everything buffered so far; concurrent calls run one after the other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushOnce());
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      const seen = new Set(await this.d.repo.touch([...batch]));
      const missing = [...batch.keys()].filter((id) => !seen.has(id));
      if (missing.length) this.d.onMissing?.(missing);
    } catch (err) {
      // Keep the newer of the two times for the next attempt.
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      this.logError(err);
    }
  }

  private logError(err: unknown): void {
    const now = Date.now();
    if (now - this.lastErrorLogAt < 30_000) return;
    this.lastErrorLogAt = now;
    this.d.log.warn({ err }, 'could not write heartbeat times; retrying');
  }
}
