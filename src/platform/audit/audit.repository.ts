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

  private filtered(f: Omit<AuditFilter, 'limit' | 'offset'>) {
    let q = this.db.selectFrom('audit_log');
    if (f.action) q = q.where('action', '=', f.action);
    if (f.adminUsername) q = q.where('admin_username', '=', f.adminUsername);
    if (f.from) q = q.where('created_at', '>=', f.from);
    if (f.to) q = q.where('created_at', '<=', f.to);
    return q;
  }

  async list(f: AuditFilter): Promise<{ total: number; rows: AuditRow[] }> {
    const q = this.filtered(f);
    const [{ total }, rows] = await Promise.all([
      q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
    ]);
    return { total: Number(total), rows };
  }

  /**
   * Rows of a filter older than `after` (newest first), `limit` at a time: the CSV export walks
   * the log by this key, so rows written meanwhile neither repeat nor shift a page.
   */
  rowsAfter(f: Omit<AuditFilter, 'limit' | 'offset'>, after: { created_at: string; id: number } | null, limit: number): Promise<AuditRow[]> {
    let q = this.filtered(f);
    if (after) {
      q = q.where((eb) =>
        eb.or([eb('created_at', '<', after.created_at), eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)])]),
      );
    }
    return q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  findById(id: number): Promise<AuditRow | undefined> {
    return this.db.selectFrom('audit_log').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every action name in the log, for the console's filter. */
  async actions(): Promise<string[]> {
    const rows = await this.db.selectFrom('audit_log').select('action').distinct().orderBy('action').execute();
    return rows.map((r) => r.action);
  }

  async serverNames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('servers').select(['id', 'name']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
