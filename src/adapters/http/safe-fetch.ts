/**
 * An SSRF-safe GET for URLs the service does not control (the allowlist subscription, wallpaper
 * images named by an archive). The URL is parsed the
 * WHATWG way, so numeric host forms (`2130706433`, `0x7f.1`, `017700000001`) are already dotted
 * quads; the host is resolved once and every address must be public unicast (IPv4-mapped IPv6 is
 * judged as the IPv4 it carries). The connection then goes to that checked address through a
 * pinned `lookup`, so a second DNS answer can never redirect it (DNS rebinding); the Host header
 * and TLS server name stay the original host. Redirects are followed by hand, each hop checked
 * again. One deadline covers the whole exchange and the body is capped while it streams.
 */
import type { HostResolver } from '../../core/network.js';
import { ResolveError, bareHost, blockedRange, loadUndici, pinnedAgent, readCappedBody, resolveHost } from './pinned-target.js';

export { blockedRange };

export const FETCH_TIMEOUT_MS = 15_000;
export const FETCH_MAX_BYTES = 1_000_000;
export const FETCH_MAX_REDIRECTS = 3;

/** A refusal or failure whose message is safe to show the client (it never echoes the URL). */
export class FetchRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchRejectedError';
  }
}

export interface SafeFetchOptions {
  resolve: HostResolver;
  /** Names what is fetched in error messages ("Subscription", "Wallpaper"). */
  label?: string;
  /** FLEET_ALLOW_PRIVATE_FETCH=1: loopback is admitted (for tests); other private ranges never are. */
  allowLoopback?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

export interface FetchBytesOptions {
  maxBytes?: number;
  /** Every hop (redirects included) must stay on this origin, e.g. the origin of an archive. */
  sameOrigin?: string;
}

export interface FetchedBytes {
  body: Buffer;
  contentType: string | null;
}

export class SafeFetcher {
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly label: string;

  constructor(private readonly o: SafeFetchOptions) {
    this.timeoutMs = o.timeoutMs ?? FETCH_TIMEOUT_MS;
    this.maxBytes = o.maxBytes ?? FETCH_MAX_BYTES;
    this.maxRedirects = o.maxRedirects ?? FETCH_MAX_REDIRECTS;
    this.label = o.label ?? 'Subscription';
  }

  /** Parses and checks one URL; returns it with the address the connection must use. */
  async check(raw: string | URL, signal?: AbortSignal): Promise<{ url: URL; address: string }> {
    let url: URL;
    try {
      url = raw instanceof URL ? raw : new URL(raw.trim());
    } catch {
      throw new FetchRejectedError('Invalid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new FetchRejectedError('Only http and https URLs are allowed');
    }
    const host = bareHost(url.hostname);
    if (host === '') throw new FetchRejectedError('The URL has no host');
    let addresses: string[];
    try {
      addresses = await resolveHost(host, this.o.resolve, signal);
    } catch (err) {
      if (err instanceof ResolveError && err.timedOut) throw new FetchRejectedError(`${this.label} fetch timed out`);
      throw new FetchRejectedError(`Could not resolve host ${host}`);
    }
    for (const address of addresses) {
      const range = blockedRange(address, this.o.allowLoopback);
      if (range) throw new FetchRejectedError(`Host ${host} resolves to a blocked address (${range})`);
    }
    return { url, address: addresses[0] };
  }

  /** GET with the checks above on every hop; the body as UTF-8 text. */
  async fetchText(raw: string): Promise<string> {
    return (await this.fetchBytes(raw)).body.toString('utf8');
  }

  /** GET with the checks above on every hop (and, when asked, on one origin only); the raw body. */
  async fetchBytes(raw: string | URL, opts: FetchBytesOptions = {}): Promise<FetchedBytes> {
    const maxBytes = opts.maxBytes ?? this.maxBytes;
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), this.timeoutMs);
    timer.unref();
    try {
      let target: string | URL = raw;
      for (let redirects = 0; ; redirects++) {
        const { url, address } = await this.check(target, ac.signal);
        if (opts.sameOrigin !== undefined && url.origin !== opts.sameOrigin) {
          throw new FetchRejectedError(`${this.label} URL is not on ${opts.sameOrigin}`);
        }
        const hop = await this.get(url, address, ac.signal, maxBytes);
        if (hop.location === null) return { body: hop.body, contentType: hop.contentType };
        if (redirects >= this.maxRedirects) throw new FetchRejectedError(`Too many redirects (more than ${this.maxRedirects})`);
        try {
          target = new URL(hop.location, url);
        } catch {
          throw new FetchRejectedError('Invalid redirect location');
        }
      }
    } catch (err) {
      if (err instanceof FetchRejectedError) throw err;
      if (ac.signal.aborted) throw new FetchRejectedError(`${this.label} fetch timed out`);
      throw new FetchRejectedError(`${this.label} fetch failed: ${describe(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private async get(url: URL, address: string, signal: AbortSignal, maxBytes: number): Promise<{ location: string | null } & FetchedBytes> {
    const agent = await pinnedAgent(address, this.timeoutMs);
    const { request } = await loadUndici();
    try {
      const res = await request(url, {
        method: 'GET',
        dispatcher: agent,
        signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        headers: { 'user-agent': `fleet-admin/${this.label.toLowerCase()}-fetch`, accept: '*/*' },
      });
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && location) {
        await res.body.dump().catch(() => {});
        return { location: Array.isArray(location) ? location[0] : location, body: Buffer.alloc(0), contentType: null };
      }
      if (res.statusCode !== 200) {
        await res.body.dump().catch(() => {});
        throw new FetchRejectedError(`${this.label} URL answered HTTP ${res.statusCode}`);
      }
      const body = await readCappedBody(res, maxBytes, () => new FetchRejectedError(`${this.label} body exceeds ${maxBytes} bytes`));
      const type = res.headers['content-type'];
      return { location: null, body, contentType: (Array.isArray(type) ? type[0] : type) ?? null };
    } finally {
      agent.destroy().catch(() => {});
    }
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) return ((err as { code?: string }).code ?? err.message ?? 'error').slice(0, 200);
  return 'error';
}
