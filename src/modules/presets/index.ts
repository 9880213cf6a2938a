/** Password presets: encrypted passwords servers can refer to, and `/api/presets`. */
import type { Kysely } from 'kysely';
import type { Actor } from '../../core/actor.js';
import type { Cipher } from '../../core/crypto.js';
import type { AdminRow, Database } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import { PresetsRepository } from './presets.repository.js';
import { presetsRoutes } from './presets.routes.js';
import { PresetsService } from './presets.service.js';

export type { PresetsRepository };

export interface PresetsModuleDeps {
  db: Kysely<Database>;
  cipher: Cipher;
  audit: AuditService;
  requireCurrentPassword(actor: Actor, admin: AdminRow, password: string, endpoint: string): Promise<void>;
}

export function createPresetsModule(d: PresetsModuleDeps) {
  const repo = new PresetsRepository(d.db);
  const presets = new PresetsService({ repo, cipher: d.cipher, audit: d.audit, requireCurrentPassword: d.requireCurrentPassword });
  const feature: Feature = { name: 'presets', routes: [mount('/api/presets', presetsRoutes, { presets })] };
  return { repo, presets, feature };
}

/** The naming rules both preset kinds share. */
export { presetName, presetUsername } from './presets.service.js';
