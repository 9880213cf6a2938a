/**
 * The one audit helper every module uses. Recording never fails the caller's request: a failed
 * write is logged (without the detail, which may name paths) and swallowed. Every audited action
 * is a state change an operator made, so it is also one `info` line (action, who, what; never
 * the detail): with successful requests at `debug`, the `info` log reads as what happened.
 */
import type { Actor } from '../../core/actor.js';
import type { Logger } from '../../core/logger.js';
import { nowIso, parseDateBound } from '../../core/time.js';
import { NotFoundError } from '../../core/errors.js';
import type { AuditRow } from '../../db/types.js';
import { csvLine } from '../../core/csv.js';
import { AUDIT_CSV_COLUMNS, auditCsvRow } from './audit-csv.js';
import type { AuditFilter, AuditRepository } from './audit.repository.js';
import type { AuditExportQuery, AuditItem, AuditPage, AuditQuery } from './audit.schemas.js';

/** Rows read per query while the CSV export streams. */
const EXPORT_CHUNK = 500;

export interface AuditTarget {
  type?: string | null;
  id?: string | number | null;
  detail?: string | null;
}

export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly log: Logger,
  ) {}

  async record(actor: Actor, action: string, target: AuditTarget = {}): Promise<void> {
    try {
      await this.repo.insert({
        admin_username: actor.username,
        action,
        target_type: target.type ?? null,
        target_id: target.id === undefined || target.id === null ? null : String(target.id),
        detail: target.detail ?? null,
        ip_address: actor.ip,
        created_at: nowIso(),
      });
      this.log.info({ action, admin: actor.username, target_type: target.type ?? undefined, target_id: target.id ?? undefined }, 'audit');
    } catch (err) {
      this.log.error({ action, err }, 'audit write failed');
    }
  }

  async list(q: AuditQuery): Promise<AuditPage> {
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const { total, rows } = await this.repo.list({ ...this.filter(q), limit, offset });
    return { total, limit, offset, items: await this.items(rows) };
  }

  /** One entry, as the list shows it. */
  async get(id: number): Promise<AuditItem> {
    const row = await this.repo.findById(id);
    if (!row) throw new NotFoundError('Audit entry not found', 'audit_entry_not_found');
    const [item] = await this.items([row]);
    return item;
  }

  /** Every action name the log holds, sorted. */
  actions(): Promise<string[]> {
    return this.repo.actions();
  }

  /**
   * The CSV of every entry matching the filters, newest first, as text chunks. The filters are
   * checked here, before the first chunk (a bad date is a 422, not a broken download).
   */
  exportCsv(q: AuditExportQuery): AsyncGenerator<string> {
    const filter = this.filter(q);
    const repo = this.repo;
    const items = (rows: AuditRow[]) => this.items(rows);
    return (async function* () {
      // A byte order mark: spreadsheet programs then read the UTF-8 (names in Chinese) right.
      yield `\ufeff${csvLine([...AUDIT_CSV_COLUMNS])}`;
      let after: AuditRow | null = null;
      for (;;) {
        const rows = await repo.rowsAfter(filter, after, EXPORT_CHUNK);
        if (rows.length === 0) return;
        yield (await items(rows)).map(auditCsvRow).join('');
        if (rows.length < EXPORT_CHUNK) return;
        after = rows[rows.length - 1];
      }
    })();
  }

  private filter(q: AuditExportQuery): Omit<AuditFilter, 'limit' | 'offset'> {
    return {
      action: q.action || undefined,
      adminUsername: q.admin_username || undefined,
      from: q.date_from ? parseDateBound(q.date_from, 'from', 'date_from') : undefined,
      to: q.date_to ? parseDateBound(q.date_to, 'to', 'date_to') : undefined,
    };
  }

  /** Rows with their aliases, and the server's name where the target is a server. */
  private async items(rows: AuditRow[]): Promise<AuditItem[]> {
    const serverIds = rows
      .filter((r) => r.target_type === 'server' && r.target_id !== null && /^\d+$/.test(r.target_id))
      .map((r) => Number(r.target_id));
    const names = await this.repo.serverNames([...new Set(serverIds)]);
    const items = rows.map((r) => ({
      ...r,
      resource_type: r.target_type,
      resource_id: r.target_id,
      ...(r.target_type === 'server' ? { target_name: names.get(Number(r.target_id)) ?? null } : {}),
    }));
    return items;
  }
}
