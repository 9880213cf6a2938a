/**
 * The login IP allowlist. State lives in settings, so every change goes
 * through `RuntimeSettings.set` and reaches the other workers. The login guard reads the
 * subscription and manual entries themselves (a login passes on their union); `login_allowed_ips` is that
 * union kept for display, recomputed whenever either list changes, by whatever route.
 */
import type { Cache } from '../../adapters/cache/cache.js';
import type { Actor } from '../../core/actor.js';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { every, type Periodic } from '../../core/periodic.js';
import { nowIso } from '../../core/time.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import { checkEntries, dedupe, joinList, normalizeEntry, splitList, validateEntries } from './allowlist-entries.js';
import { FetchRejectedError, type SafeFetcher } from '../../adapters/http/safe-fetch.js';
import { extractHosts } from './subscription-parser.js';
import type { AllowlistState, CheckResponse, RefreshResponse, SaveBody, SaveResponse, ValidateResponse } from './allowlist.schemas.js';

export const K = {
  enabled: 'login_allowlist_enabled',
  url: 'login_subscription_url',
  subscription: 'login_subscription_ips',
  manual: 'login_manual_ips',
  allowed: 'login_allowed_ips',
  /** Internal: when the subscription list was last replaced (not a PUT-able key). */
  lastRefresh: 'login_subscription_last_refresh',
} as const;

export const REFRESH_PERIOD_MS = 2 * 60 * 60 * 1000;
const REFRESH_LOCK = 'allowlist:subscription-refresh';

export interface AllowlistServiceDeps {
  settings: RuntimeSettings;
  cache: Cache;
  audit: AuditService;
  log: Logger;
  fetcher: SafeFetcher;
  /** The login guard's match of an address against the stored lists (on or off). */
  listAllows(ip: string): Promise<boolean>;
}

export class AllowlistService {
  /** Mutations of this worker run one after another so read-modify-write never interleaves. */
  private queue: Promise<unknown> = Promise.resolve();
  private loop: Periodic | null = null;
  private unwatch: (() => void) | null = null;

  constructor(private readonly d: AllowlistServiceDeps) {}

  /** Keeps `login_allowed_ips` in step when a list is written directly (`PUT /api/settings/{key}`). */
  watch(): void {
    if (this.unwatch) return;
    this.unwatch = this.d.settings.onChange((key) => {
      if (key !== K.subscription && key !== K.manual) return;
      this.serial(() => this.recompute()).catch((err: unknown) =>
        this.d.log.warn({ err }, 'could not update login_allowed_ips'),
      );
    });
  }

  state(): AllowlistState {
    const subscription = splitList(this.d.settings.get(K.subscription));
    const manual = splitList(this.d.settings.get(K.manual));
    return {
      enabled: this.d.settings.getBool(K.enabled),
      subscription_url: this.d.settings.get(K.url) ?? '',
      subscription_ips: subscription,
      manual_ips: manual,
      subscription_count: subscription.length,
      manual_count: manual.length,
      total_count: dedupe([...subscription, ...manual]).length,
      last_refresh: this.d.settings.get(K.lastRefresh) || null,
    };
  }

  /** What a login from `ip` would meet: the lists' verdict, and whether the allowlist is on. */
  async check(ip: string): Promise<CheckResponse> {
    const enabled = this.d.settings.getBool(K.enabled);
    const listed = await this.d.listAllows(ip);
    return { ip, enabled, listed, allowed: !enabled || listed };
  }

  /** Judges a batch line by line with the writes' own rule; stores nothing. */
  validate(ips: readonly string[]): ValidateResponse {
    const entries = checkEntries(ips);
    const invalid = entries.filter((e) => e.error !== null).length;
    return { entries, valid_count: entries.length - invalid, invalid_count: invalid };
  }

  /**
   * Refresh now from the stored subscription URL (400 when none is set). A failure keeps the
   * previous list and answers refresh_ok false, as the save does. Audit `refresh_ip_allowlist`.
   */
  refreshNow(actor: Actor): Promise<RefreshResponse> {
    return this.serial(async () => {
      const url = (this.d.settings.get(K.url) ?? '').trim();
      if (!url) throw new BadRequestError('No subscription URL is set', 'allowlist_no_subscription');
      let error: string | null = null;
      try {
        const hosts = await this.fetchHosts(url);
        await this.d.settings.set(K.subscription, joinList(hosts));
        await this.d.settings.set(K.lastRefresh, nowIso());
        await this.recompute();
      } catch (err) {
        error = err instanceof Error ? err.message : 'Subscription refresh failed';
      }
      const s = this.state();
      await this.d.audit.record(actor, 'refresh_ip_allowlist', {
        type: 'ip_allowlist',
        detail: `subscription=${s.subscription_count} refresh_ok=${error === null}`,
      });
      return {
        success: true as const,
        refresh_ok: error === null,
        refresh_error: error,
        subscription_count: s.subscription_count,
        total_count: s.total_count,
        last_refresh: s.last_refresh,
      };
    });
  }

  /** Fetches and parses a subscription; every failure is a 400 with a safe message. */
  async fetchHosts(url: string): Promise<string[]> {
    let body: string;
    try {
      body = await this.d.fetcher.fetchText(url);
    } catch (err) {
      if (err instanceof FetchRejectedError) throw new BadRequestError(err.message, 'subscription_fetch_failed');
      throw new BadRequestError('Subscription fetch failed', 'subscription_fetch_failed');
    }
    const hosts = extractHosts(body);
    if (hosts.length === 0) throw new BadRequestError('No hosts could be extracted from the subscription', 'subscription_empty');
    return hosts;
  }

  async parseSubscription(actor: Actor, url: string): Promise<{ hosts: string[]; count: number }> {
    const hosts = await this.fetchHosts(url);
    await this.d.audit.record(actor, 'parse_subscription', { type: 'ip_allowlist', detail: `hosts=${hosts.length}` });
    return { hosts, count: hosts.length };
  }

  save(actor: Actor, input: Partial<SaveBody>): Promise<SaveResponse> {
    const manual = validateEntries(input.manual_ips ?? []);
    return this.serial(async () => {
      const url = input.subscription_url !== undefined ? input.subscription_url.trim() : (this.d.settings.get(K.url) ?? '').trim();
      let refreshed: string[] | null = null;
      let refreshError: string | null = null;
      if (url) {
        // Fetched before anything is written, so a slow or failing refresh leaves no half state.
        try {
          refreshed = await this.fetchHosts(url);
        } catch (err) {
          refreshError = err instanceof Error ? err.message : 'Subscription refresh failed';
        }
      }
      await this.d.settings.set(K.manual, joinList(manual));
      if (input.enabled !== undefined) await this.d.settings.set(K.enabled, String(input.enabled));
      if (input.subscription_url !== undefined) await this.d.settings.set(K.url, url);
      if (!url) {
        await this.d.settings.set(K.subscription, '');
        await this.d.settings.set(K.lastRefresh, '');
      } else if (refreshed) {
        await this.d.settings.set(K.subscription, joinList(refreshed));
        await this.d.settings.set(K.lastRefresh, nowIso());
      }
      await this.recompute();
      const s = this.state();
      await this.d.audit.record(actor, 'update_ip_allowlist', {
        type: 'ip_allowlist',
        detail: `enabled=${s.enabled} manual=${s.manual_count} subscription=${s.subscription_count} refresh_ok=${refreshError === null}`,
      });
      return {
        success: true as const,
        manual_count: s.manual_count,
        subscription_ips: url ? s.subscription_ips : [],
        subscription_count: url ? s.subscription_count : 0,
        last_refresh: url ? s.last_refresh : null,
        refresh_ok: refreshError === null,
        refresh_error: refreshError,
      };
    });
  }

  toggle(actor: Actor, enabled: boolean): Promise<{ success: true; enabled: boolean }> {
    return this.serial(async () => {
      await this.d.settings.set(K.enabled, enabled ? 'true' : 'false');
      await this.d.audit.record(actor, 'toggle_ip_allowlist', { type: 'ip_allowlist', detail: `enabled=${enabled}` });
      return { success: true as const, enabled };
    });
  }

  addManual(actor: Actor, ips: string[]): Promise<{ success: true; manual_ips: string[] }> {
    const added = validateEntries(ips);
    return this.serial(async () => {
      const manual = dedupe([...splitList(this.d.settings.get(K.manual)), ...added]);
      await this.d.settings.set(K.manual, joinList(manual));
      await this.recompute();
      await this.d.audit.record(actor, 'add_manual_ips', { type: 'ip_allowlist', detail: `added=${added.join(',')}`.slice(0, 1000) });
      return { success: true as const, manual_ips: manual };
    });
  }

  removeIp(actor: Actor, ip: string): Promise<{ success: true; removed: string; remaining: number }> {
    const wanted = normalizeEntry(ip) ?? ip.trim();
    return this.serial(async () => {
      const manual = splitList(this.d.settings.get(K.manual));
      if (!manual.includes(wanted)) throw new NotFoundError('The entry is not in the manual allowlist', 'allowlist_entry_not_found');
      const remaining = manual.filter((e) => e !== wanted);
      await this.d.settings.set(K.manual, joinList(remaining));
      await this.recompute();
      await this.d.audit.record(actor, 'remove_allowlist_ip', { type: 'ip_allowlist', id: wanted, detail: `ip=${wanted}` });
      return { success: true as const, removed: wanted, remaining: remaining.length };
    });
  }

  /** Re-reads the stored subscription URL; a failure keeps the previous list. True when replaced. */
  refreshSubscription(): Promise<boolean> {
    return this.serial(async () => {
      const url = (this.d.settings.get(K.url) ?? '').trim();
      if (!url) return false;
      try {
        const hosts = await this.fetchHosts(url);
        await this.d.settings.set(K.subscription, joinList(hosts));
        await this.d.settings.set(K.lastRefresh, nowIso());
        await this.recompute();
        this.d.log.info({ hosts: hosts.length }, 'login allowlist subscription refreshed');
        return true;
      } catch (err) {
        this.d.log.warn({ err }, 'login allowlist subscription refresh failed; keeping the previous list');
        return false;
      }
    });
  }

  /**
   * One scheduled check: when a subscription is set and its last refresh is older than the period,
   * the worker that wins the cache lock refreshes it. The lock is left to expire, so across all
   * workers there is at most one refresh per period. True when this worker refreshed.
   */
  async runScheduledRefresh(periodMs = REFRESH_PERIOD_MS): Promise<boolean> {
    try {
      if (!(this.d.settings.get(K.url) ?? '').trim()) return false;
      const last = Date.parse(this.d.settings.get(K.lastRefresh) ?? '');
      if (Number.isFinite(last) && Date.now() - last < periodMs) return false;
      const token = await this.d.cache.acquireLock(REFRESH_LOCK, periodMs);
      if (!token) return false;
      return await this.refreshSubscription();
    } catch (err) {
      this.d.log.warn({ err }, 'scheduled allowlist refresh skipped');
      return false;
    }
  }

  start(checkEveryMs = 10 * 60 * 1000, periodMs = REFRESH_PERIOD_MS): void {
    // runScheduledRefresh logs and swallows its own failures.
    this.loop ??= every(checkEveryMs, () => this.runScheduledRefresh(periodMs), () => {});
  }

  async stop(): Promise<void> {
    this.unwatch?.();
    this.unwatch = null;
    await this.loop?.stop();
    this.loop = null;
    await this.queue.catch(() => {});
  }

  /** `login_allowed_ips` = subscription ∪ manual, written only when it changed. */
  private async recompute(): Promise<void> {
    const allowed = joinList(dedupe([...splitList(this.d.settings.get(K.subscription)), ...splitList(this.d.settings.get(K.manual))]));
    if ((this.d.settings.get(K.allowed) ?? '') !== allowed) await this.d.settings.set(K.allowed, allowed);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => {});
    return run;
  }
}
