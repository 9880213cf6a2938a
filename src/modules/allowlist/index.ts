/**
 * The login IP allowlist (`/api/settings/ip-allowlist...`): manual entries and a proxy
 * subscription refreshed every 2 hours; the union is what logins are checked against.
 */
import type { Cache } from '../../adapters/cache/cache.js';
import type { Logger } from '../../core/logger.js';
import type { HostResolver } from '../../core/network.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import { allowlistRoutes } from './allowlist.routes.js';
import { AllowlistService } from './allowlist.service.js';
import { SafeFetcher } from '../../adapters/http/safe-fetch.js';

export interface AllowlistModuleDeps {
  settings: RuntimeSettings;
  cache: Cache;
  audit: AuditService;
  log: Logger;
  /** Resolves the subscription URL's host before the address checks. */
  resolver: HostResolver;
  /** Test-only: loopback subscription URLs are admitted (other private ranges never are). */
  allowPrivateFetch: boolean;
  /** The login guard's match of an address against the stored lists. */
  listAllows(ip: string): Promise<boolean>;
}

export function createAllowlistModule(d: AllowlistModuleDeps) {
  if (d.allowPrivateFetch) {
    d.log.warn(
      { FLEET_ALLOW_PRIVATE_FETCH: '1' },
      '!!! FLEET_ALLOW_PRIVATE_FETCH=1: the subscription fetcher may reach LOOPBACK addresses. This is for tests only; never set it in production !!!',
    );
  }
  const fetcher = new SafeFetcher({ resolve: d.resolver, allowLoopback: d.allowPrivateFetch });
  const allowlist = new AllowlistService({ settings: d.settings, cache: d.cache, audit: d.audit, log: d.log, fetcher, listAllows: d.listAllows });
  const feature: Feature = {
    name: 'allowlist',
    routes: [mount('/api/settings', allowlistRoutes, { allowlist })],
    // Every process keeps `login_allowed_ips` in step with direct writes of the lists.
    perProcess: { start: () => allowlist.watch(), stop: () => allowlist.stop() },
    background: { start: () => allowlist.start(), stop: () => allowlist.stop() },
  };
  return { allowlist, feature };
}
