/**
 * Opens `offline` for servers that sent heartbeats before but none for `heartbeat_timeout`
 * seconds. One worker at a time runs a check (a cache lock). A server that never sent one stays
 * `unknown` and is never reported.
 *
 * Clock jumps: every tick compares how far the wall clock moved with how far the monotonic clock
 * moved. When they disagree by more than the timeout (the host clock was set, the VM was paused)
 * the round is skipped and the detector re-baselines: nobody is declared offline until a full
 * timeout after the jump, so agents get a fair chance to report instead of all alerting at once.
 * The same grace applies after start-up, when the service itself may have been down.
 */
import type { Cache } from '../../adapters/cache/cache.js';
import type { Logger } from '../../core/logger.js';
import { every, type Periodic } from '../../core/periodic.js';
import type { ActiveAlertStore } from './active-alerts.store.js';
import type { AlertEngine } from './alert-engine.service.js';
import type { ServerStatusStore } from '../servers/index.js';

export const DETECTOR_INTERVAL_MS = 10_000;
const LOCK = 'alerts:offline-detector';

export interface OfflineDetectorDeps {
  /** The servers module's status columns (only that module writes `servers`). */
  repo: ServerStatusStore;
  engine: AlertEngine;
  store: ActiveAlertStore;
  cache: Cache;
  log: Logger;
  now: () => number;
  monotonic?: () => number;
  /** Writes this worker's buffered heartbeats first, so the check never reads a stale time. */
  beforeCheck?: () => Promise<void>;
  /** Told which servers were just marked offline (e.g. to update cached statuses). */
  onOffline?: (ids: number[]) => void;
}

export type TickResult = 'checked' | 'locked' | 'clock_jump';

export class OfflineDetector {
  private baselineAt: number;
  private last: { wall: number; mono: number } | null = null;
  private loop: Periodic | null = null;
  private readonly monotonic: () => number;

  constructor(private readonly d: OfflineDetectorDeps) {
    this.baselineAt = d.now();
    this.monotonic = d.monotonic ?? (() => performance.now());
  }

  start(intervalMs = DETECTOR_INTERVAL_MS): void {
    this.loop ??= every(intervalMs, () => this.tick(), (err) =>
      this.d.log.warn({ err }, 'offline check failed'),
    );
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    this.loop = null;
  }

  /** No server is declared offline until a full timeout after `at`. */
  rebaseline(at: number): void {
    this.baselineAt = at;
  }

  /** One scheduled round; the clocks are parameters so tests can simulate a jump. */
  async tick(wall = this.d.now(), mono = this.monotonic()): Promise<TickResult> {
    const timeoutMs = this.d.engine.heartbeatTimeoutS() * 1000;
    const prev = this.last;
    this.last = { wall, mono };
    if (prev) {
      const skew = wall - prev.wall - (mono - prev.mono);
      if (Math.abs(skew) > timeoutMs) {
        this.d.log.warn({ skewMs: Math.round(skew) }, 'wall clock jumped; skipping one offline check and re-baselining');
        this.rebaseline(wall);
        return 'clock_jump';
      }
    }
    const token = await this.d.cache.acquireLock(LOCK, 60_000);
    if (!token) return 'locked';
    try {
      await this.checkOffline(wall);
      return 'checked';
    } finally {
      await this.d.cache.releaseLock(LOCK, token).catch(() => {});
    }
  }

  /** Opens `offline` for every server silent since `now - heartbeat_timeout`; returns their ids. */
  async checkOffline(nowMs: number): Promise<number[]> {
    const timeoutS = this.d.engine.heartbeatTimeoutS();
    await this.d.engine.pruneDeleted();
    if (nowMs - this.baselineAt <= timeoutS * 1000) return [];
    await this.d.beforeCheck?.();
    const cutoff = new Date(nowMs - timeoutS * 1000).toISOString();
    const offline: number[] = [];
    for (const s of await this.d.repo.stale(cutoff)) {
      const opened = await this.d.engine.open(s, 'offline', null, nowMs, { limit: timeoutS });
      if (opened || (await this.d.store.isActive(s.id, 'offline'))) offline.push(s.id);
    }
    await this.d.repo.markOffline(offline, cutoff);
    if (offline.length) this.d.onOffline?.(offline);
    return offline;
  }
}
