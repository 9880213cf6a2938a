/**
 * The checks that run before credentials, in this order: the login IP allowlist, then the
 * failed-attempt lockout (5 failures per username or caller address in 15 minutes). The lockout
 * also counts wrong current passwords given to endpoints that re-check them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import ipaddr from 'ipaddr.js';
import type { Cache } from '../../adapters/cache/cache.js';
import type { Logger } from '../../core/logger.js';
import { normalizeIp, systemResolver, type HostResolver } from '../../core/network.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import { TooManyRequestsError } from '../../core/errors.js';

export const LOCKOUT_LIMIT = 5;
export const LOCKOUT_WINDOW_S = 15 * 60;
const HOST_CACHE_MS = 5 * 60 * 1000;

/** How long an attempt waits for attempts in flight to finish before it is refused. */
const SLOT_WAIT_MS = 3_000;
const SLOT_RETRY_MS = 25;
/** An in-flight count left by a process that died mid-attempt is gone after this much quiet. */
const HELD_TTL_S = 60;

/** One attempt in flight; settle it exactly once: `failed` counts it, `release` does not. */
export interface AttemptSlot {
  failed(): Promise<void>;
  release(): Promise<void>;
}

interface Counter {
  fail: string;
  held: string;
}

const UNCOUNTED: AttemptSlot = { failed: async () => {}, release: async () => {} };

export class LoginGuard {
  private readonly hostCache = new Map<string, { at: number; addrs: string[] }>();

  constructor(
    private readonly cache: Cache,
    private readonly settings: RuntimeSettings,
    private readonly log: Logger,
    private readonly resolve: HostResolver = systemResolver,
  ) {}

  allowlistEnabled(): boolean {
    return this.settings.getBool('login_allowlist_enabled');
  }

  /** True when the allowlist is off or the address matches an entry (address, CIDR or host name). */
  async isAllowed(ip: string): Promise<boolean> {
    if (!this.allowlistEnabled()) return true;
    return this.listAllows(ip);
  }

  /** True when the address matches an entry of the stored lists, whether the allowlist is on or not. */
  async listAllows(ip: string): Promise<boolean> {
    const caller = normalizeIp(ip);
    if (!caller) return false;
    // The union of subscription and manual entries, read at the source so a
    // direct write of either list applies to the very next login.
    const entries = new Set(
      [this.settings.get('login_subscription_ips'), this.settings.get('login_manual_ips')]
        .flatMap((list) => (list ?? '').split(','))
        .map((e) => e.trim())
        .filter(Boolean),
    );
    for (const entry of entries) {
      if (await this.matches(caller, entry)) return true;
    }
    return false;
  }

  private async matches(caller: ipaddr.IPv4 | ipaddr.IPv6, entry: string): Promise<boolean> {
    if (entry.includes('/')) {
      try {
        const [range, bits] = ipaddr.parseCIDR(entry);
        return range.kind() === caller.kind() && caller.match([range, bits]);
      } catch {
        return false;
      }
    }
    const asIp = normalizeIp(entry);
    if (asIp) return asIp.kind() === caller.kind() && asIp.toNormalizedString() === caller.toNormalizedString();
    for (const addr of await this.resolveCached(entry)) {
      const a = normalizeIp(addr);
      if (a && a.kind() === caller.kind() && a.toNormalizedString() === caller.toNormalizedString()) return true;
    }
    return false;
  }

  private async resolveCached(host: string): Promise<string[]> {
    const hit = this.hostCache.get(host);
    if (hit && Date.now() - hit.at < HOST_CACHE_MS) return hit.addrs;
    let addrs: string[] = [];
    try {
      addrs = await this.resolve(host);
    } catch (err) {
      this.log.warn({ host, err }, 'allowlist host name did not resolve');
    }
    this.hostCache.set(host, { at: Date.now(), addrs });
    return addrs;
  }

  /**
   * Takes a slot for one attempt of this username from this address before any password is
   * checked. Two counters per key: confirmed failures (the lockout window) and attempts still in
   * flight. An attempt goes ahead only while failures plus attempts in flight, itself included,
   * stay within LOCKOUT_LIMIT. INCR is atomic on both caches, so however many requests arrive at
   * once, at most LOCKOUT_LIMIT of them are verifying a password that could still fail; the rest
   * wait for those to finish (a right password frees its slot at once, so parallel good logins
   * are only queued), and are refused with 429 once the failures reach the limit.
   * With the cache down nothing can be counted: every admin locked out would be worse, so the
   * attempt goes ahead and the credentials decide.
   */
  async reserve(username: string, ip: string): Promise<AttemptSlot> {
    const giveUpAt = Date.now() + SLOT_WAIT_MS;
    for (;;) {
      const outcome = await this.tryReserve(this.keys(username, ip));
      if (outcome !== 'busy') return outcome;
      if (Date.now() >= giveUpAt) throw new TooManyRequestsError('Too many attempts at once; try again shortly', 1);
      await sleep(SLOT_RETRY_MS + Math.floor(Math.random() * SLOT_RETRY_MS));
    }
  }

  private async tryReserve(counters: Counter[]): Promise<AttemptSlot | 'busy'> {
    const held: string[] = [];
    const locked: string[] = [];
    let busy = false;
    try {
      for (const c of counters) {
        // In flight first, failures second: a finishing attempt adds its failure before it
        // leaves the in-flight count, so no attempt is ever missing from both.
        const inFlight = await this.cache.incr(c.held, HELD_TTL_S, { refreshTtl: true });
        held.push(c.held);
        const failures = Number((await this.cache.get(c.fail)) ?? 0);
        if (failures >= LOCKOUT_LIMIT) locked.push(c.fail);
        else if (failures + inFlight > LOCKOUT_LIMIT) busy = true;
      }
    } catch (err) {
      this.log.warn({ err }, 'lockout check skipped: cache unavailable');
      await this.decrement(held);
      return UNCOUNTED;
    }
    if (locked.length > 0) {
      const wait = await this.secondsLeft(locked);
      await this.decrement(held);
      throw new TooManyRequestsError('Too many failed attempts; try again later', wait, 'login_locked');
    }
    if (busy) {
      await this.decrement(held);
      return 'busy';
    }
    let settled = false;
    const settle = async (failed: boolean) => {
      if (settled) return;
      settled = true;
      if (failed) await this.countFailure(counters);
      await this.decrement(held);
    };
    return { failed: () => settle(true), release: () => settle(false) };
  }

  /** A successful login starts that username's count again. */
  async clearUser(username: string): Promise<void> {
    try {
      await this.cache.del(this.keys(username, '')[0].fail);
    } catch {
      // Best effort: the counter expires with its window anyway.
    }
  }

  private async countFailure(counters: Counter[]): Promise<void> {
    try {
      for (const c of counters) await this.cache.incr(c.fail, LOCKOUT_WINDOW_S);
    } catch (err) {
      this.log.warn({ err }, 'could not record a failed attempt: cache unavailable');
    }
  }

  private async secondsLeft(keys: string[]): Promise<number> {
    let wait = 0;
    for (const key of keys) {
      try {
        wait = Math.max(wait, await this.cache.ttl(key));
      } catch {
        wait = LOCKOUT_WINDOW_S;
      }
    }
    // A counter without a TTL (never written by this code) still gets a whole window.
    return wait > 0 ? wait : LOCKOUT_WINDOW_S;
  }

  private async decrement(keys: string[]): Promise<void> {
    for (const key of keys) {
      try {
        await this.cache.decr(key);
      } catch (err) {
        // The slot then stays taken until HELD_TTL_S of quiet: a lost release errs on the strict side.
        this.log.warn({ err }, 'could not release a login attempt slot: cache unavailable');
      }
    }
  }

  private keys(username: string, ip: string): Counter[] {
    return [`user:${username.toLowerCase()}`, `ip:${ip}`].map((id) => ({ fail: `login:fail:${id}`, held: `login:held:${id}` }));
  }
}
