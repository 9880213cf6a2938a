/** SSH key presets: encrypted private keys servers can refer to, and `/api/ssh-key-presets`. */
import type { Kysely } from 'kysely';
import type { Actor } from '../../core/actor.js';
import type { Cipher } from '../../core/crypto.js';
import type { AdminRow, Database } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import { SshKeyPresetsRepository } from './ssh-key-presets.repository.js';
import { sshKeyPresetsRoutes } from './ssh-key-presets.routes.js';
import { SshKeyPresetsService } from './ssh-key-presets.service.js';

export type { SshKeyPresetsRepository };

export interface SshKeyPresetsModuleDeps {
  db: Kysely<Database>;
  cipher: Cipher;
  audit: AuditService;
  requireCurrentPassword(actor: Actor, admin: AdminRow, password: string, endpoint: string): Promise<void>;
}

export function createSshKeyPresetsModule(d: SshKeyPresetsModuleDeps) {
  const repo = new SshKeyPresetsRepository(d.db);
  const sshKeyPresets = new SshKeyPresetsService({ repo, cipher: d.cipher, audit: d.audit, requireCurrentPassword: d.requireCurrentPassword });
  const feature: Feature = { name: 'ssh-key-presets', routes: [mount('/api/ssh-key-presets', sshKeyPresetsRoutes, { sshKeyPresets })] };
  return { repo, sshKeyPresets, feature };
}
