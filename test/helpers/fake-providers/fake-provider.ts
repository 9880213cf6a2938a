/**
 * The common part of the loopback provider fakes: a node:http server on 127.0.0.1 that records
 * every request, checks it against what the provider documents (each provider's `check`), and
 * answers in the provider's own success or error format. A request that breaks the documented
 * shape is answered with the provider's refusal and its reasons are kept in `problems`, so a test
 * asserts `problems` is empty and sees why otherwise.
 *
 *   const fake = await startFakeDingtalk({ secret: 'SEC…' });
 *   fake.url            // base URL, e.g. http://127.0.0.1:40123
 *   fake.config         // a valid channel config for this type pointing at the fake
 *   fake.received       // every request: method, path, query, headers, body, json
 *   fake.failNext(2, 'rate')  // next 2 requests: 'refuse' | 'rate' | 'server' | 'hang'
 *   fake.delayMs = 50   // answer later (latency for benches)
 *   await fake.close()
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/**
 * `refuse`: the provider's documented refusal (bad token/key/signature: not worth a retry);
 * `rate`: its rate-limit answer; `server`: HTTP 502 from a failing gateway; `hang`: no answer at all.
 */
export type FailureKind = 'refuse' | 'rate' | 'server' | 'hang';

export interface FakeReply {
  status: number;
  body: string | Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface ProviderSpec {
  /** What is wrong with one request compared with the provider's documentation; empty when right. */
  check(req: ReceivedRequest): string[];
  ok(req: ReceivedRequest): FakeReply;
  /** The provider's answer for a failure; `detail` names the reason (the problems for a bad request). */
  failure(kind: Exclude<FailureKind, 'hang' | 'server'>, detail: string): FakeReply;
}

export class FakeProvider<C = Record<string, unknown>> {
  readonly received: ReceivedRequest[] = [];
  readonly problems: string[] = [];
  delayMs = 0;
  url = '';
  /** A channel configuration pointing at this fake (filled by each provider's start function). */
  config = {} as C;
  private failures: FailureKind[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly spec: ProviderSpec) {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const addr = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${addr.port}`;
    return this;
  }

  /** The next `n` requests fail the given way (after being recorded). */
  failNext(n = 1, kind: FailureKind = 'refuse'): void {
    for (let i = 0; i < n; i++) this.failures.push(kind);
  }

  /** The last request received, or throws when there was none. */
  last(): ReceivedRequest {
    const req = this.received.at(-1);
    if (!req) throw new Error('the fake received no request');
    return req;
  }

  reset(): void {
    this.received.length = 0;
    this.problems.length = 0;
    this.failures = [];
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    const received: ReceivedRequest = { method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body, json };
    this.received.push(received);
    const failure = this.failures.shift();
    if (failure === 'hang') return; // never answered; close() destroys the socket
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    const problems = this.spec.check(received);
    this.problems.push(...problems);
    let reply: FakeReply;
    if (problems.length) reply = this.spec.failure('refuse', `fake: ${problems.join('; ')}`);
    else if (failure === 'server') reply = { status: 502, body: '<html><body>502 Bad Gateway</body></html>', headers: { 'content-type': 'text/html' } };
    else if (failure) reply = this.spec.failure(failure, '');
    else reply = this.spec.ok(received);
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    const type = typeof reply.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
    res.writeHead(reply.status, { 'content-type': type, ...reply.headers });
    res.end(text);
  }
}

/** Problems shared by JSON APIs: POST, a JSON content type and a JSON object body. */
export function jsonPostProblems(req: ReceivedRequest): string[] {
  const out: string[] = [];
  if (req.method !== 'POST') out.push(`method ${req.method}, expected POST`);
  if (!/^application\/json/i.test(req.headers['content-type'] ?? '')) out.push(`content-type ${req.headers['content-type']}, expected application/json`);
  if (!req.json || typeof req.json !== 'object') out.push('body is not a JSON object');
  return out;
}

/** A field of a JSON body by dotted path. */
export function field(req: ReceivedRequest, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), req.json);
}

/** Problems for fields that must be non-empty strings. */
export function stringFields(req: ReceivedRequest, paths: string[]): string[] {
  return paths.filter((p) => typeof field(req, p) !== 'string' || field(req, p) === '').map((p) => `${p} missing or not a string`);
}
