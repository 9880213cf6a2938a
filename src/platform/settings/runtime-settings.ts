/**
 * The running configuration: every stored setting held in memory, updated at once on a write
 * and re-read by every other worker when the change is announced on the cache channel. Only the
 * key travels over the cache, so secrets never pass through Redis in the clear.
 *
 * An announcement can be lost: published while Redis was down, or while this worker's pub/sub
 * connection was. So every worker re-reads all settings from the database (the truth) when its
 * pub/sub connection comes back, and every RESYNC_INTERVAL_MS anyway: workers converge after an
 * outage within a second of Redis returning, and after any other lost message within that period.
 */
import type { Cache, Unsubscribe } from '../../adapters/cache/cache.js';
import { subscribeDurably } from '../../adapters/cache/durable-subscription.js';
import type { Logger } from '../../core/logger.js';
import { every, type Periodic } from '../../core/periodic.js';
import type { SettingsRepository } from './settings.repository.js';

export const SETTINGS_CHANNEL = 'settings:changed';
/** Backstop for an announcement lost without a reconnect (the writer's own connection was down). */
export const RESYNC_INTERVAL_MS = 30_000;

type Listener = (key: string, value: string | null) => void;

export class RuntimeSettings {
  private readonly values = new Map<string, string | null>();
  /** When each value was stored (the row's `updated_at`), kept in step with `values`. */
  private readonly stamps = new Map<string, string>();
  private readonly listeners = new Set<Listener>();
  /** When this worker last had each key from the database (read, written, or told of a change). */
  private readonly readAt = new Map<string, number>();
  /**
   * Orders this worker's own writes against a re-read of every setting: a write that lands while
   * the re-read's query runs is newer than the row it returns. A counter, not the clock: in the
   * same millisecond a queued re-read of an older value and the resync looked equally fresh, and
   * the resync kept the older value (one read-back in 20 failed).
   */
  private seq = 0;
  private readonly writtenSeq = new Map<string, number>();
  private readonly rereads = new Map<string, Promise<void>>();
  private loadedAt = 0;
  private unsubscribe: Unsubscribe | null = null;
  private offReconnect: (() => void) | null = null;
  private resyncLoop: Periodic | null = null;
  private readonly origin = Math.random().toString(36).slice(2);
  /** Remote changes are applied one at a time, so a slow re-read can never overwrite a newer one. */
  private remoteQueue: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: SettingsRepository,
    private readonly cache: Cache,
    private readonly log: Logger,
  ) {}

  async load(): Promise<void> {
    const rows = await this.repo.all();
    this.values.clear();
    this.stamps.clear();
    this.readAt.clear();
    for (const r of rows) {
      this.values.set(r.key, r.value);
      this.stamps.set(r.key, r.updated_at);
    }
    this.loadedAt = Date.now();
  }

  /** Follows changes made by other workers, and catches up on those it may have missed. */
  async start(resyncEveryMs = RESYNC_INTERVAL_MS): Promise<void> {
    this.offReconnect = this.cache.onReconnect?.(() => {
      this.log.info({}, 'cache pub/sub reconnected; re-reading settings');
      void this.resync();
    }) ?? null;
    this.unsubscribe = await subscribeDurably(this.cache, SETTINGS_CHANNEL, (msg) => {
      this.remoteQueue = this.remoteQueue.then(() => this.onRemoteChange(msg));
    }, this.log);
    this.resyncLoop = every(resyncEveryMs, () => this.resync(), () => {});
  }

  async stop(): Promise<void> {
    this.offReconnect?.();
    this.offReconnect = null;
    await this.resyncLoop?.stop();
    this.resyncLoop = null;
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /**
   * Re-reads every setting and applies (and tells listeners of) each one that differs. Queued
   * with remote changes; a key this worker wrote after the read began keeps its newer
   * copy. Resolves to the keys that changed; a database failure leaves the copy in memory.
   */
  resync(): Promise<string[]> {
    const run = async (): Promise<string[]> => {
      const startSeq = this.seq;
      let rows: Awaited<ReturnType<SettingsRepository['all']>>;
      try {
        rows = await this.repo.all();
      } catch (err) {
        this.log.warn({ err }, 'could not re-read settings; keeping the copy in memory');
        return [];
      }
      const fresher = (key: string) => (this.writtenSeq.get(key) ?? 0) > startSeq;
      const changed: string[] = [];
      const seen = new Set<string>();
      for (const r of rows) {
        seen.add(r.key);
        if (fresher(r.key)) continue;
        if (this.values.has(r.key) && r.value === this.values.get(r.key) && r.updated_at === this.stamps.get(r.key)) continue;
        this.apply(r.key, r.value, r.updated_at);
        changed.push(r.key);
      }
      for (const key of [...this.values.keys()]) {
        if (seen.has(key) || fresher(key)) continue;
        this.values.delete(key);
        this.stamps.delete(key);
        this.emit(key, null);
        changed.push(key);
      }
      if (changed.length) this.log.info({ keys: changed }, 'settings caught up with changes missed from other workers');
      return changed;
    };
    const done = this.remoteQueue.then(run);
    this.remoteQueue = done.then(() => undefined);
    return done;
  }

  get(key: string): string | null {
    return this.values.get(key) ?? null;
  }

  /**
   * The value, re-read from the database first when this worker's copy is older than
   * `maxAgeMs`. For a value whose change must reach every worker even when the change
   * announcement is lost (Redis down): the API key, whose rotation must lock the old key out.
   */
  async getFresh(key: string, maxAgeMs: number): Promise<string | null> {
    if (Date.now() - (this.readAt.get(key) ?? this.loadedAt) >= maxAgeMs) {
      let pending = this.rereads.get(key);
      if (!pending) {
        // In the queue of remote changes, so an older read can never land after a newer one.
        pending = this.remoteQueue = this.remoteQueue.then(() => this.reread(key));
        this.rereads.set(key, pending);
        void pending.finally(() => this.rereads.delete(key));
      }
      await pending;
    }
    return this.get(key);
  }

  has(key: string): boolean {
    return this.values.has(key) && this.values.get(key) !== null;
  }

  /** The stored entry as this worker currently sees it, or null when there is no row. */
  entry(key: string): { key: string; value: string | null; updated_at: string } | null {
    if (!this.values.has(key)) return null;
    return { key, value: this.values.get(key) ?? null, updated_at: this.stamps.get(key) ?? '' };
  }

  /** Every stored key this worker knows of. */
  keys(): string[] {
    return [...this.values.keys()];
  }

  getBool(key: string, fallback = false): boolean {
    const v = this.get(key);
    if (v === null || v.trim() === '') return fallback;
    return ['true', '1', 'yes', 'on'].includes(v.trim().toLowerCase());
  }

  /** An integer setting; a stored value that does not parse is skipped with a warning. */
  getInt(key: string, fallback: number): number {
    const v = this.get(key);
    if (v === null || v.trim() === '') return fallback;
    const n = Number(v.trim());
    if (!Number.isInteger(n)) {
      this.log.warn({ key }, 'ignoring non-integer setting value');
      return fallback;
    }
    return n;
  }

  /** Stores, applies locally at once and announces the change to the other workers. */
  async set(key: string, value: string | null): Promise<void> {
    const row = await this.repo.upsert(key, value);
    this.writtenSeq.set(key, ++this.seq);
    this.apply(key, value, row.updated_at);
    await this.announce(key);
  }

  async delete(key: string): Promise<void> {
    await this.repo.delete(key);
    this.writtenSeq.set(key, ++this.seq);
    this.readAt.set(key, Date.now());
    this.values.delete(key);
    this.stamps.delete(key);
    this.emit(key, null);
    await this.announce(key);
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private apply(key: string, value: string | null, updatedAt: string): void {
    this.readAt.set(key, Date.now());
    this.values.set(key, value);
    this.stamps.set(key, updatedAt);
    this.emit(key, value);
  }

  private emit(key: string, value: string | null): void {
    for (const l of this.listeners) {
      try {
        l(key, value);
      } catch (err) {
        this.log.error({ err, key }, 'setting change listener failed');
      }
    }
  }

  private async announce(key: string): Promise<void> {
    try {
      await this.cache.publish(SETTINGS_CHANNEL, JSON.stringify({ key, origin: this.origin }));
    } catch (err) {
      // The local change stands; other workers catch up on their next reload.
      this.log.warn({ err, key }, 'could not broadcast setting change');
    }
  }

  private async onRemoteChange(msg: string): Promise<void> {
    try {
      const { key, origin } = JSON.parse(msg) as { key: string; origin: string };
      if (origin === this.origin || typeof key !== 'string') return;
      await this.reread(key);
    } catch (err) {
      this.log.warn({ err }, 'could not apply a setting change from another worker');
    }
  }

  private async reread(key: string): Promise<void> {
    try {
      const row = await this.repo.get(key);
      if (row) {
        if (row.value !== this.values.get(key) || row.updated_at !== this.stamps.get(key)) this.apply(key, row.value, row.updated_at);
      } else if (this.values.delete(key)) {
        this.stamps.delete(key);
        this.emit(key, null);
      }
    } catch (err) {
      // The copy in memory stands until the next try.
      this.log.warn({ err, key }, 'could not re-read a setting');
    } finally {
      this.readAt.set(key, Date.now());
    }
  }
}
