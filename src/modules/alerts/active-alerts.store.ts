/**
 * The live active-alert set, shared by every worker through the cache: one set `alerts:active`
 * of `<server_id>:<type>` members. State changes (open/recover) run under a per server+type
 * lock, so two workers never open the same alert twice or write two recoveries.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cache } from '../../adapters/cache/cache.js';
import { ALERT_TYPES, type AlertType } from './alert-messages.js';

export const ACTIVE_SET = 'alerts:active';
const LOCK_TTL_MS = 10_000;
const LOCK_WAIT_MS = 3_000;
const LOCK_RETRY_MS = 15;

export interface ActiveKey {
  serverId: number;
  type: string;
}

export const member = (serverId: number, type: string): string => `${serverId}:${type}`;

export function parseMember(m: string): ActiveKey | null {
  const i = m.indexOf(':');
  const serverId = Number(m.slice(0, i));
  return i > 0 && Number.isInteger(serverId) ? { serverId, type: m.slice(i + 1) } : null;
}

/** The members of one server's possible alerts, in ALERT_TYPES order. */
const members = (serverId: number): string[] => ALERT_TYPES.map((t) => member(serverId, t));

function typesOf(hits: boolean[]): Set<AlertType> {
  const active = new Set<AlertType>();
  for (let i = 0; i < ALERT_TYPES.length; i++) if (hits[i]) active.add(ALERT_TYPES[i]);
  return active;
}

export class LockTimeoutError extends Error {}

export class ActiveAlertStore {
  constructor(private readonly cache: Cache) {}

  /** The active types of one server, in one cache call (one round trip on Redis): each agent heartbeat reads this. */
  async typesFor(serverId: number): Promise<Set<AlertType>> {
    return typesOf(await this.cache.sismemberMany(ACTIVE_SET, members(serverId)));
  }

  /** `typesFor` at once when the cache is in this process; undefined when it has to be awaited. */
  typesForNow(serverId: number): Set<AlertType> | undefined {
    return this.cache.sismemberManyNow ? typesOf(this.cache.sismemberManyNow(ACTIVE_SET, members(serverId))) : undefined;
  }

  isActive(serverId: number, type: string): Promise<boolean> {
    return this.cache.sismember(ACTIVE_SET, member(serverId, type));
  }

  add(serverId: number, type: string): Promise<void> {
    return this.cache.sadd(ACTIVE_SET, member(serverId, type));
  }

  remove(serverId: number, type: string): Promise<void> {
    return this.cache.srem(ACTIVE_SET, member(serverId, type));
  }

  async members(): Promise<ActiveKey[]> {
    return (await this.cache.smembers(ACTIVE_SET)).map(parseMember).filter((k): k is ActiveKey => k !== null);
  }

  async count(): Promise<number> {
    return (await this.cache.smembers(ACTIVE_SET)).length;
  }

  /** Runs `fn` holding the server+type lock; waits up to 3 s for another worker's transition. */
  async withLock<T>(serverId: number, type: string, fn: () => Promise<T>): Promise<T> {
    const name = `alert:${member(serverId, type)}`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    let token = await this.cache.acquireLock(name, LOCK_TTL_MS);
    while (!token) {
      if (Date.now() > deadline) throw new LockTimeoutError(`alert ${member(serverId, type)} is locked by another worker`);
      await sleep(LOCK_RETRY_MS);
      token = await this.cache.acquireLock(name, LOCK_TTL_MS);
    }
    try {
      return await fn();
    } finally {
      await this.cache.releaseLock(name, token).catch(() => {});
    }
  }
}
