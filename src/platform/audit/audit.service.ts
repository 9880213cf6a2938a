/**
 * The one audit helper every module uses. Recording never fails the caller's request: a failed
 * write is logged (without the detail, which may name paths) and swallowed. Every audited action
 * is a state change an operator made, so it is also one `info` line (action, who, what; never
 * the detail): with successful requests at `debug`, the `info` log reads as what happened.
 */
import type { Actor } from '../../core/actor.js';
import type { Logger } from '../../core/logger.js';
import { nowIso, parseDateBound } from '../../core/time.js';
import type { AuditRepository } from './audit.repository.js';
import type { AuditPage, AuditQuery } from './audit.schemas.js';

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
    const { total, rows } = await this.repo.list({
      action: q.action || undefined,
      adminUsername: q.admin_username || undefined,
      from: q.date_from ? parseDateBound(q.date_from, 'from', 'date_from') : undefined,
      to: q.date_to ? parseDateBound(q.date_to, 'to', 'date_to') : undefined,
      limit,
      offset,
    });
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
    return { total, limit, offset, items };
  }
}
