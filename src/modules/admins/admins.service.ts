import type { Actor } from '../../core/actor.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.js';
import type { AdminRow } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { hashPassword } from '../../core/passwords.js';
import type { AdminsRepository } from './admins.repository.js';
import type { AdminView } from './admins.schemas.js';


export function toAdminView(a: AdminRow): AdminView {
  return { id: a.id, username: a.username, totp_enabled: Boolean(a.totp_enabled), created_at: a.created_at };
}

export class AdminsService {
  constructor(
    private readonly repo: AdminsRepository,
    private readonly audit: AuditService,
  ) {}

  async list(): Promise<AdminView[]> {
    return (await this.repo.list()).map(toAdminView);
  }

  async create(actor: Actor, username: string, password: string): Promise<AdminView> {
    const name = username.trim();
    if (!/^[A-Za-z0-9_.@-]{1,100}$/.test(name)) {
      throw new BadRequestError('Username must be 1-100 letters, digits or _ . @ -', 'username_invalid');
    }
    if (await this.repo.findByUsername(name)) throw new ConflictError('An admin with that username exists', 'username_taken');
    const admin = await this.repo.create(name, await hashPassword(password));
    await this.audit.record(actor, 'create_admin', { type: 'admin', id: admin.id, detail: `username=${name}` });
    return toAdminView(admin);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const outcome = await this.repo.deleteUnlessLast(id);
    if (outcome === 'missing') throw new NotFoundError('Admin not found', 'admin_not_found');
    if (outcome === 'last') throw new BadRequestError('The last admin cannot be deleted', 'last_admin');
    await this.audit.record(actor, 'delete_admin', { type: 'admin', id });
  }
}
