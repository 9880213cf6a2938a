/**
 * The way back in for a lost password, for whoever holds the host rather than the API: a new
 * generated password, every earlier token of that admin revoked (access tokens through the
 * token_version bump, refresh tokens through their families), audited as `reset_password_cli`.
 * The audit row names the admin whose password was reset; it has no caller address.
 */
import { generatePassword, hashPassword } from '../../core/passwords.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { AdminsRepository } from '../admins/index.js';
import type { FirstRunFile } from './auth.service.js';
import type { RefreshFamiliesRepository } from './refresh-families.repository.js';

export interface HostResetDeps {
  admins: Pick<AdminsRepository, 'findByUsername' | 'setPassword'>;
  families: Pick<RefreshFamiliesRepository, 'revokeAllOf'>;
  audit: Pick<AuditService, 'record'>;
  firstRun?: FirstRunFile;
}

/** The new password, or null when there is no admin of that name. */
export async function resetPasswordOnHost(d: HostResetDeps, username: string): Promise<string | null> {
  const admin = await d.admins.findByUsername(username);
  if (!admin) return null;
  const password = generatePassword();
  await d.admins.setPassword(admin.id, await hashPassword(password));
  await d.families.revokeAllOf(admin.id);
  await d.audit.record({ adminId: admin.id, username: admin.username, ip: null }, 'reset_password_cli', {
    type: 'admin',
    id: admin.id,
    detail: 'password reset from the host; earlier sessions revoked',
  });
  // A first-start password on disk is now wrong: it must not outlive the reset.
  d.firstRun?.consumedBy(admin.username);
  return password;
}
