/**
 * The one outbound HTTP call of the notification channels. Only http(s); the host is resolved once
 * and, unless private targets are allowed (the `notify_allow_private_targets` setting), every
 * address must be public unicast; the connection then goes to that checked address (pinned
 * lookup, see pinned-target.ts) with the Host header and TLS server name of the URL. One deadline
 * covers resolve, connect, headers and body; the body is capped while it streams; a redirect is a
 * failure, never followed (a provider that redirects a send is misconfigured, and following would
 * bypass the check). Error messages never contain the URL: webhook keys live in paths and queries.
 */
import type { HostResolver } from '../../core/network.js';
import type { PinnedAgents } from './pinned-agents.js';
import { ResolveError, bareHost, blockedRange, loadUndici, pinnedAgent, readCappedBody, resolveHost } from './pinned-target.js';

export const GUARDED_TIMEOUT_MS = 10_000;
export const GUARDED_MAX_BYTES = 64 * 1024;

export interface GuardedRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface GuardedResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

export type GuardedRequest = (url: string, init?: GuardedRequestInit) => Promise<GuardedResponse>;

/**
 * Why a request failed before an answer could be read: `refused` (bad scheme or URL, blocked
 * address), `resolve`, `timeout`, `network` (connection refused or reset, TLS), `too_large`,
 * `redirect`. `retryable` says whether trying again later can help.
 */
export class GuardedRequestError extends Error {
  constructor(
    readonly kind: 'refused' | 'resolve' | 'timeout' | 'network' | 'too_large' | 'redirect',
    message: string,
  ) {
    super(message);
    this.name = 'GuardedRequestError';
  }

  get retryable(): boolean {
    return this.kind === 'timeout' || this.kind === 'network' || this.kind === 'resolve';
  }
}

export interface GuardedRequestOptions {
  resolve: HostResolver;
  /** Admits private, loopback, link-local and other non-public targets (self-hosted providers). */
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  userAgent?: string;
  /** Keep-alive agents shared by every request the service makes to channels; without it, one connection per request. */
  agents?: PinnedAgents;
}

/** Ranges never worth connecting to, even with private targets allowed. */
const NEVER = new Set(['unspecified', 'multicast', 'broadcast', 'invalid address', 'reserved']);

/** Judges one address under the private-target rule; the reason it is refused, or null. */
export function refusedAddress(address: string, allowPrivate: boolean): string | null {
  const range = blockedRange(address);
  if (range === null) return null;
  return allowPrivate && !NEVER.has(range) ? null : range;
}

/** Resolves a host once and checks every address; the address to connect to. */
export async function checkedAddress(host: string, o: Pick<GuardedRequestOptions, 'resolve' | 'allowPrivate'>, signal?: AbortSignal): Promise<string> {
  let addresses: string[];
  try {
    addresses = await resolveHost(bareHost(host), o.resolve, signal);
  } catch (err) {
    if (err instanceof ResolveError && err.timedOut) throw new GuardedRequestError('timeout', 'request timed out');
    throw new GuardedRequestError('resolve', 'could not resolve the target host');
  }
  for (const address of addresses) {
    const range = refusedAddress(address, o.allowPrivate);
    if (range) throw new GuardedRequestError('refused', `target is a non-public address (${range}); private targets are not allowed`);
  }
  return addresses[0];
}

export function createGuardedRequest(o: GuardedRequestOptions): GuardedRequest {
  const timeoutMs = o.timeoutMs ?? GUARDED_TIMEOUT_MS;
  const maxBytes = o.maxBytes ?? GUARDED_MAX_BYTES;
  return async (raw, init = {}) => {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw new GuardedRequestError('refused', 'invalid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GuardedRequestError('refused', 'only http and https URLs are allowed');
    if (url.username || url.password) throw new GuardedRequestError('refused', 'URLs with credentials are not allowed');
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    timer.unref();
    let agent: Awaited<ReturnType<typeof pinnedAgent>> | undefined;
    let address: string | undefined;
    let failed = true;
    try {
      address = await checkedAddress(url.hostname, o, ac.signal);
      agent = o.agents ? await o.agents.get(address) : await pinnedAgent(address, timeoutMs);
      const { request } = await loadUndici();
      const res = await request(url, {
        method: (init.method ?? 'POST') as 'POST',
        headers: { 'user-agent': o.userAgent ?? 'fleet-admin/notify', ...init.headers },
        body: init.body,
        dispatcher: agent,
        signal: ac.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      if (res.statusCode >= 300 && res.statusCode < 400) {
        await res.body.dump().catch(() => {});
        throw new GuardedRequestError('redirect', `answered with a redirect (HTTP ${res.statusCode}), which is not followed`);
      }
      const body = await readCappedBody(res, maxBytes, () => new GuardedRequestError('too_large', `response exceeds ${maxBytes} bytes`));
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      failed = false;
      return { status: res.statusCode, headers, text: body.toString('utf8') };
    } catch (err) {
      if (err instanceof GuardedRequestError) throw err;
      if (ac.signal.aborted) throw new GuardedRequestError('timeout', 'request timed out');
      const code = failureCode(err);
      if (code === 'timed out') throw new GuardedRequestError('timeout', 'request timed out');
      throw new GuardedRequestError('network', `request failed: ${code}`);
    } finally {
      clearTimeout(timer);
      // A kept agent stays open for the next send to this address, unless this one failed.
      if (!o.agents) agent?.destroy().catch(() => {});
      else if (failed && address) o.agents.drop(address);
    }
  };
}

/** An error code (ECONNREFUSED, UND_ERR_SOCKET …), never the message: undici's may quote the URL. */
function failureCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : null;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timed out';
  return code ?? (err instanceof Error ? err.name : 'error');
}
