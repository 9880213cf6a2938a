/**
 * Agent tokens: 32 random bytes shown once, stored as a SHA-256 hex digest (a random 256-bit
 * token needs no slow hash; the digest is what the indexed column is searched by). Resolved
 * tokens are kept in memory for a minute so the heartbeat hot path does no database read; a
 * rotation is announced on a cache channel so every worker drops the old token at once.
 */
import crypto from 'node:crypto';
import type { MonitoredServer } from '../servers/index.js';

export const TOKENS_CHANNEL = 'agent:tokens';

export function newAgentToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashAgentToken(token: string): string {
  // One-shot hash (Node ≥ 20.12): no Hash object per heartbeat.
  return crypto.hash('sha256', token, 'hex');
}

const BEARER = /^Bearer\s+([A-Za-z0-9_-]{16,128})$/i;
const HEADER_HASHES_MAX = 20_000;

/**
 * The token hash of an `Authorization: Bearer <agent token>` header, or null when the header is
 * not one. A bounded memo of a pure function: every agent sends the same header every time, and
 * the pattern test plus SHA-256 was a measurable share of a heartbeat's CPU. Only well-formed
 * headers are kept, at most 20,000 (a few MB even for the longest tokens); emptied when full, so a
 * spray of headers cannot grow it, and a larger fleet only hashes again as before.
 */
export class HeaderHashes {
  private readonly memo = new Map<string, string>();

  constructor(private readonly max = HEADER_HASHES_MAX) {}

  of(header: string | undefined): string | null {
    if (!header) return null;
    const known = this.memo.get(header);
    if (known !== undefined) return known;
    const m = BEARER.exec(header);
    if (!m) return null;
    const hash = hashAgentToken(m[1]);
    if (this.memo.size >= this.max) this.memo.clear();
    this.memo.set(header, hash);
    return hash;
  }
}

/** The server a token belongs to, as cached; `status` is updated in place by the heartbeat path. */
export type AgentServer = MonitoredServer;

interface Entry {
  server: AgentServer;
  expiresAt: number;
}

export class AgentTokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<AgentServer | null>>();
  /** Bumped by every eviction, so a lookup that started before it is not cached after it. */
  private generation = 0;

  constructor(
    private readonly lookup: (hash: string) => Promise<AgentServer | undefined>,
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 100_000,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The cached server of this token hash, without a read: undefined when not cached or expired. */
  peek(hash: string): AgentServer | undefined {
    const hit = this.entries.get(hash);
    return hit && hit.expiresAt > this.clock() ? hit.server : undefined;
  }

  async resolve(hash: string): Promise<AgentServer | null> {
    const hit = this.peek(hash);
    if (hit) return hit;
    const pending = this.inflight.get(hash);
    if (pending !== undefined) return pending;
    const generation = this.generation;
    const p = this.lookup(hash)
      .then((row) => {
        if (!row) return null;
        const server: AgentServer = { id: row.id, name: row.name, status: row.status };
        if (generation === this.generation) this.put(hash, server);
        return server;
      })
      .finally(() => this.inflight.delete(hash));
    this.inflight.set(hash, p);
    return p;
  }

  /** Every cached token of these servers (rotation, deletion). */
  evictServers(ids: Iterable<number>): void {
    const drop = new Set(ids);
    this.generation++;
    for (const [hash, e] of this.entries) if (drop.has(e.server.id)) this.entries.delete(hash);
  }

  /** Updates the cached status of servers another component changed (the offline detector). */
  setStatus(ids: Iterable<number>, status: string): void {
    const set = new Set(ids);
    for (const e of this.entries.values()) if (set.has(e.server.id)) e.server.status = status;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  private put(hash: string, server: AgentServer): void {
    if (this.entries.size >= this.maxEntries) {
      // Oldest insertion first: Map iteration order.
      const first = this.entries.keys().next();
      if (!first.done) this.entries.delete(first.value);
    }
    this.entries.set(hash, { server, expiresAt: this.clock() + this.ttlMs });
  }
}
