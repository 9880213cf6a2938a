/**
 * Filtered, sorted, paged reads of the servers table. Tags are stored as a JSON array of
 * strings, so a tag filter matches its JSON-quoted form inside that text; LIKE wildcards in the
 * user's input are escaped with `!` on both dialects.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database, ServerRow } from '../../db/types.js';
import type { FleetFilter, FleetSort } from './fleet-query.schemas.js';

type ServersQuery<O> = SelectQueryBuilder<Database, 'servers', O>;

export function likeEscape(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}

export class FleetQueryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private filtered<O>(q: ServersQuery<O>, f: FleetFilter): ServersQuery<O> {
    let out = q;
    const term = f.q?.trim();
    if (term) {
      const pattern = `%${likeEscape(term.toLowerCase())}%`;
      out = out.where(sql<boolean>`(lower(name) like ${pattern} escape '!' or lower(host) like ${pattern} escape '!')`);
    }
    if (f.tag) out = out.where(sql<boolean>`tags like ${`%${likeEscape(JSON.stringify(f.tag))}%`} escape '!'`);
    if (f.status) out = out.where('status', '=', f.status);
    return out;
  }

  async page(f: FleetFilter, sort: FleetSort, order: 'asc' | 'desc', limit: number, offset: number): Promise<{ rows: ServerRow[]; total: number }> {
    let q = this.filtered(this.db.selectFrom('servers').selectAll(), f);
    const dir = order === 'desc' ? sql`desc` : sql`asc`;
    if (sort === 'status') {
      q = q.orderBy(sql`case status when 'offline' then 0 when 'unknown' then 1 else 2 end ${dir}`);
    } else if (sort === 'last_heartbeat') {
      // Never-seen servers last in either direction; both dialects order NULLs differently.
      q = q.orderBy(sql`case when last_heartbeat_at is null then 1 else 0 end`).orderBy(sql`last_heartbeat_at ${dir}`);
    } else if (sort === 'created') {
      q = q.orderBy(sql`created_at ${dir}`);
    } else {
      q = q.orderBy(sql`lower(name) ${dir}`);
    }
    // Equal keys fall back to the name, then the id, so pages never shuffle between requests.
    if (sort !== 'name') q = q.orderBy(sql`lower(name)`);
    const rows = await q.orderBy('id', order).limit(limit).offset(offset).execute();
    const count = await this.filtered(this.db.selectFrom('servers').select((eb) => eb.fn.countAll<number>().as('n')), f).executeTakeFirst();
    return { rows, total: Number(count?.n ?? 0) };
  }

  async ids(f: FleetFilter, max: number): Promise<number[]> {
    const rows = await this.filtered(this.db.selectFrom('servers').select('id'), f).orderBy('id').limit(max).execute();
    return rows.map((r) => r.id);
  }

  async allTags(): Promise<string[]> {
    return (await this.db.selectFrom('servers').select('tags').execute()).map((r) => r.tags);
  }

  async statusCounts(): Promise<Array<{ status: string; n: number }>> {
    const rows = await this.db
      .selectFrom('servers')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
  }

  /** Servers by SSH signal: failing (a streak of failures runs), reachable (contacted, not failing). */
  async sshCounts(): Promise<{ failing: number; reachable: number }> {
    const row = await this.db
      .selectFrom('servers')
      .select([
        sql<number>`coalesce(sum(case when ssh_failing_since is not null then 1 else 0 end), 0)`.as('failing'),
        sql<number>`coalesce(sum(case when ssh_failing_since is null and ssh_last_ok_at is not null then 1 else 0 end), 0)`.as('reachable'),
      ])
      .executeTakeFirst();
    return { failing: Number(row?.failing ?? 0), reachable: Number(row?.reachable ?? 0) };
  }
}
