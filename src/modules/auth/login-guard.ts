/**
 * The checks that run before credentials (CONTRACT §8 order): the login IP allowlist, then the
 * failed-login lockout (5 failures per username or caller address in 15 minutes).
 */
import ipaddr from 'ipaddr.js';
import type { Cache } from '../../adapters/cache/cache.js';
import type { Logger } from '../../core/logger.js';
import { normalizeIp, systemResolver, type HostResolver } from '../../core/network.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';

export const LOCKOUT_LIMIT = 5;
export const LOCKOUT_WINDOW_S = 15 * 60;
const HOST_CACHE_MS = 5 * 60 * 1000;

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
    const caller = normalizeIp(ip);
    if (!caller) return false;
    // The spec's rule: the union of subscription and manual entries, read at the source so a
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
      this.log.warn({ host, err: String(err) }, 'allowlist host name did not resolve');
    }
    this.hostCache.set(host, { at: Date.now(), addrs });
    return addrs;
  }

  /** Seconds until the caller may try again, or 0 when not locked out. */
  async lockedFor(username: string, ip: string): Promise<number> {
    try {
      let wait = 0;
      for (const key of this.keys(username, ip)) {
        const n = Number((await this.cache.get(key)) ?? 0);
        if (n >= LOCKOUT_LIMIT) wait = Math.max(wait, await this.cache.ttl(key));
      }
      return wait > 0 ? wait : 0;
    } catch (err) {
      // A cache outage must not lock every admin out; credentials are still checked.
      this.log.warn({ err: String(err) }, 'lockout check skipped: cache unavailable');
      return 0;
    }
  }

  async recordFailure(username: string, ip: string): Promise<void> {
    try {
      for (const key of this.keys(username, ip)) await this.cache.incr(key, LOCKOUT_WINDOW_S);
    } catch (err) {
      this.log.warn({ err: String(err) }, 'could not record a failed login: cache unavailable');
    }
  }

  async clearUser(username: string): Promise<void> {
    try {
      await this.cache.del(this.keys(username, '')[0]);
    } catch {
      // Best effort: the counter expires with its window anyway.
    }
  }

  private keys(username: string, ip: string): string[] {
    return [`login:fail:user:${username.toLowerCase()}`, `login:fail:ip:${ip}`];
  }
}
