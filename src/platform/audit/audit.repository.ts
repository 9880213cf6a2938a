import type { Kysely } from 'kysely';
import type { AuditRow, Database } from '../../db/types.js';

export interface AuditFilter {
  action?: string;
  adminUsername?: string;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Omit<AuditRow, 'id'>): Promise<void> {
    await this.db.insertInto('audit_log').values(row).execute();
  }

  async list(f: AuditFilter): Promise<{ total: number; rows: AuditRow[] }> {
    let q = this.db.selectFrom('audit_log');
    if (f.action) q = q.where('action', '=', f.action);
    if (f.adminUsername) q = q.where('admin_username', '=', f.adminUsername);
    if (f.from) q = q.where('created_at', '>=', f.from);
    if (f.to) q = q.where('created_at', '<=', f.to);
    const [{ total }, rows] = await Promise.all([
      q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
    ]);
    return { total: Number(total), rows };
  }

  async serverNames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('servers').select(['id', 'name']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
