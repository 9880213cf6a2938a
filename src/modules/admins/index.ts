/**
 * Administrators: the table, the request-time lookup (kept in memory, dropped on every write
 * here and, over the cache's pub/sub, on the other processes) and `/api/admins`.
 */
import type { Kysely } from 'kysely';
import type { Cache } from '../../adapters/cache/cache.js';
import type { Logger } from '../../core/logger.js';
import type { Database } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import { AdminLookup } from './admin-lookup.js';
import { AdminsRepository } from './admins.repository.js';
import { adminsRoutes } from './admins.routes.js';
import { AdminsService, toAdminView } from './admins.service.js';

export type { AdminLookup, AdminsRepository, AdminsService };
export { toAdminView };

export interface AdminsModuleDeps {
  db: Kysely<Database>;
  cache: Cache;
  audit: AuditService;
  log: Logger;
  now?: () => number;
}

export function createAdminsModule(d: AdminsModuleDeps) {
  const repo: AdminsRepository = new AdminsRepository(d.db, (id) => lookup.invalidate(id));
  const lookup = new AdminLookup({ findById: (id) => repo.findById(id), cache: d.cache, log: d.log, now: d.now });
  const admins = new AdminsService(repo, d.audit);
  const feature: Feature = {
    name: 'admins',
    routes: [mount('/api/admins', adminsRoutes, { admins })],
    perProcess: { start: () => lookup.start(), stop: () => lookup.stop() },
  };
  return { repo, lookup, admins, feature };
}
