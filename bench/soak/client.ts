/**
 * The soak's HTTP side: a fixed set of keep-alive connections used in turn, so every one stays
 * busy and open and the service's descriptor count does not follow the load generator's whims
 * (a pool would open and idle-close connections as the concurrency of the moment goes); an
 * administrator session that logs in again before its access token (30 min) runs out; and a
 * tally of every answer by kind.
 */
import { Client, fetch } from 'undici';
import { percentile, round } from '../lib.js';
import { SOAK_ADMIN } from './service.js';

/** Logs in again this long after a login: well inside the access token's 30 minutes. */
const RELOGIN_MS = 10 * 60_000;
const KEEP_FAILURES = 10;

export interface KindTally {
  ok: number;
  failed: number;
  latencies: number[];
  firstFailures: string[];
}

export class Tally {
  readonly kinds = new Map<string, KindTally>();

  private of(kind: string): KindTally {
    let t = this.kinds.get(kind);
    if (!t) {
      t = { ok: 0, failed: 0, latencies: [], firstFailures: [] };
      this.kinds.set(kind, t);
    }
    return t;
  }

  ok(kind: string, ms: number): void {
    const t = this.of(kind);
    t.ok++;
    t.latencies.push(ms);
  }

  failed(kind: string, why: string): void {
    const t = this.of(kind);
    t.failed++;
    if (t.firstFailures.length < KEEP_FAILURES) t.firstFailures.push(why.slice(0, 500));
  }

  totalFailed(): number {
    let n = 0;
    for (const t of this.kinds.values()) n += t.failed;
    return n;
  }

  summary(): Record<string, { ok: number; failed: number; p50_ms: number; p99_ms: number; first_failures: string[] }> {
    const out: ReturnType<Tally['summary']> = {};
    for (const [k, t] of [...this.kinds].sort(([a], [b]) => a.localeCompare(b))) {
      out[k] = {
        ok: t.ok,
        failed: t.failed,
        p50_ms: round(percentile(t.latencies, 50), 1),
        p99_ms: round(percentile(t.latencies, 99), 1),
        first_failures: t.firstFailures,
      };
    }
    return out;
  }
}

export interface Answer {
  status: number;
  body: unknown;
}

export class SoakClient {
  readonly tally = new Tally();
  private readonly connections: Client[];
  private next = 0;
  private token = '';
  private loggedInAt = 0;

  constructor(
    readonly url: string,
    connections = 16,
  ) {
    // Idle-closed well after the load stops, never during it (the service closes after 72 s idle).
    this.connections = Array.from({ length: connections }, () => new Client(url, { pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 }));
  }

  /**
   * One request; `kind` names it in the tally. An answer whose status is not in `expect` (or no
   * answer) is a failure of that kind, and null is returned.
   */
  async request(kind: string, method: string, path: string, opts: { body?: unknown; token?: string | null; expect?: number[] } = {}): Promise<Answer | null> {
    const headers: Record<string, string> = {};
    const token = opts.token === undefined ? await this.adminToken() : opts.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const t0 = performance.now();
    try {
      const res = await fetch(`${this.url}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        dispatcher: this.connections[this.next++ % this.connections.length],
      });
      const text = await res.text();
      const ms = performance.now() - t0;
      if (!(opts.expect ?? [200]).includes(res.status)) {
        this.tally.failed(kind, `${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
        return null;
      }
      this.tally.ok(kind, ms);
      let body: unknown = text;
      if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
      return { status: res.status, body };
    } catch (err) {
      this.tally.failed(kind, `${method} ${path}: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
  }

  /** The administrator's access token, logging in first when there is none or it is getting old. */
  async adminToken(): Promise<string> {
    if (!this.token || Date.now() - this.loggedInAt > RELOGIN_MS) {
      const res = await this.request('login', 'POST', '/api/auth/login', { body: SOAK_ADMIN, token: null });
      if (!res) throw new Error(`the soak could not log in: ${this.tally.kinds.get('login')?.firstFailures.at(-1)}`);
      this.token = (res.body as { access_token: string }).access_token;
      this.loggedInAt = Date.now();
    }
    return this.token;
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }
}
