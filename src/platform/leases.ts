/**
 * Leases on claimed work (push batches, retry jobs). The owner writes its identity and an expiry
 * when it claims work and renews the expiry every `LEASE_RENEW_MS` while the work runs. Work whose
 * lease has run out belongs to a process that died: any process may recover it. The TTL is three
 * renewal periods, so one slow renewal never hands live work to someone else.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Cache } from '../adapters/cache/cache.js';
import type { Logger } from '../core/logger.js';
import { every, type Periodic } from '../core/periodic.js';
import type { Feature } from './feature.js';

export const LEASE_RENEW_MS = 10_000;
export const LEASE_TTL_MS = 3 * LEASE_RENEW_MS;
/** How often a background process looks for expired leases; with the TTL, recovery takes < 1 min. */
export const LEASE_PATROL_MS = 15_000;

/** This process's identity in lease columns: host, pid and a random part (pids are reused). */
export function newLeaseOwner(): string {
  return `${os.hostname().slice(0, 64)}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export function leaseUntil(now = Date.now()): string {
  return new Date(now + LEASE_TTL_MS).toISOString();
}

/**
 * Runs `task` only if this process takes the named lock: a patrol needs to run once across
 * processes, not once per process. Returns undefined when another process holds it.
 */
export async function underLock<T>(cache: Cache, name: string, ttlMs: number, task: () => Promise<T>): Promise<T | undefined> {
  const token = await cache.acquireLock(name, ttlMs);
  if (!token) return undefined;
  try {
    return await task();
  } finally {
    await cache.releaseLock(name, token).catch(() => {});
  }
}

export interface LeasedWork {
  /** Lock and log name, e.g. `push` or `retries`. */
  name: string;
  cache: Cache;
  log: Logger;
  /** Extends the leases this process holds. */
  renew(): Promise<void>;
  /** Recovers work whose lease ran out; returns how much it recovered. */
  recover(): Promise<unknown>;
}

/**
 * The lease plumbing a feature with claimed work needs: renewal in every process that may hold
 * leases, recovery once at boot and then on a patrol, each recovery under a lock so one process
 * does it.
 */
export function leaseLifecycle(w: LeasedWork): Required<Pick<Feature, 'perProcess' | 'onBoot' | 'background'>> {
  const lock = `${w.name}:lease-patrol`;
  const recover = () => underLock(w.cache, lock, LEASE_TTL_MS, w.recover);
  const warn = (what: string) => (err: unknown) => w.log.warn({ err, work: w.name }, what);
  let renewal: Periodic | null = null;
  let patrol: Periodic | null = null;
  return {
    perProcess: {
      start() {
        renewal = every(LEASE_RENEW_MS, w.renew, warn('lease renewal failed'));
      },
      async stop() {
        await renewal?.stop();
      },
    },
    onBoot: async () => {
      await recover();
    },
    background: {
      start() {
        patrol = every(LEASE_PATROL_MS, recover, warn('lease patrol failed'));
      },
      async stop() {
        await patrol?.stop();
      },
    },
  };
}
