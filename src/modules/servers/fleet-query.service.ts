/** The fleet a page at a time, every id of a filter, tags with their counts, servers by status. */
import { toServerView, parseTags } from './servers.input.js';
import type { FleetQueryRepository } from './fleet-query.repository.js';
import type { FleetFilter, FleetIds, FleetPage, FleetPageQuery, StatusCounts, TagCount } from './fleet-query.schemas.js';

/** "Select all" beyond this many servers is refused by the page; a push takes at most 5,000. */
export const MAX_IDS = 50_000;

export class FleetQueryService {
  constructor(private readonly repo: FleetQueryRepository) {}

  async page(q: FleetPageQuery): Promise<FleetPage> {
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const { rows, total } = await this.repo.page(q, q.sort ?? 'name', q.order ?? 'asc', limit, offset);
    return { items: rows.map(toServerView), total, limit, offset };
  }

  async ids(f: FleetFilter): Promise<FleetIds> {
    const ids = await this.repo.ids(f, MAX_IDS + 1);
    return { ids: ids.slice(0, MAX_IDS), total: ids.length };
  }

  /** Every tag in use with the number of servers carrying it, most used first. */
  async tags(): Promise<TagCount[]> {
    const counts = new Map<string, number>();
    for (const stored of await this.repo.allTags()) for (const tag of new Set(parseTags(stored))) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    return [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
  }

  async statusCounts(): Promise<StatusCounts> {
    const [byStatus, ssh] = await Promise.all([this.repo.statusCounts(), this.repo.sshCounts()]);
    const out: StatusCounts = { total: 0, online: 0, offline: 0, unknown: 0, no_agent: 0, ssh: { ...ssh, never: 0 } };
    for (const { status, n } of byStatus) {
      out.total += n;
      if (status === 'online' || status === 'offline') out[status] += n;
      else out.unknown += n;
    }
    out.no_agent = out.unknown;
    out.ssh.never = Math.max(0, out.total - ssh.failing - ssh.reachable);
    return out;
  }
}
