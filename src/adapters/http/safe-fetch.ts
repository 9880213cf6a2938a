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
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { HostResolver } from '../../core/network.js';

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

/** Why an address is refused, or null when it is public unicast (or admitted loopback). */
export function blockedRange(address: string, allowLoopback = false): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'invalid address';
  }
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  // IPv4-compatible IPv6 (::/96, deprecated): ipaddr.js calls ::7f00:1 "unicast", yet it names
  // 127.0.0.1 on stacks that still route it. Only :: and ::1 themselves have ranges of their own.
  if (ip.kind() === 'ipv6') {
    const parts = (ip as ipaddr.IPv6).parts;
    const compatible = parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || parts[7] > 1);
    if (compatible) return 'ipv4Compatible';
  }
  const range = ip.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && allowLoopback) return null;
  return range;
}

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
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
    if (ipaddr.isValid(host)) {
      addresses = [host];
    } else {
      try {
        addresses = await withSignal(this.o.resolve(host), signal);
      } catch {
        if (signal?.aborted) throw new FetchRejectedError(`${this.label} fetch timed out`);
        throw new FetchRejectedError(`Could not resolve host ${host}`);
      }
      if (addresses.length === 0) throw new FetchRejectedError(`Could not resolve host ${host}`);
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
    const family = ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4;
    // The pinned lookup: net.connect asks it for the host name and always gets the checked address.
    const lookup = (
      _host: string,
      opts: { all?: boolean } | number | undefined,
      cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      if (typeof opts === 'object' && opts?.all) cb(null, [{ address, family }]);
      else cb(null, address, family);
    };
    // undici is imported by the first fetch, not at start: it costs memory in every process, and
    // many deployments never fetch (subscriptions, wallpapers and webhooks are optional).
    const { Agent, request } = await import('undici');
    const agent = new Agent({ connect: { lookup: lookup as never, timeout: this.timeoutMs }, connections: 1, pipelining: 0 });
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
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        res.body.destroy();
        throw new FetchRejectedError(`${this.label} body exceeds ${maxBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          res.body.destroy();
          throw new FetchRejectedError(`${this.label} body exceeds ${maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      const type = res.headers['content-type'];
      return { location: null, body: Buffer.concat(chunks), contentType: (Array.isArray(type) ? type[0] : type) ?? null };
    } finally {
      agent.destroy().catch(() => {});
    }
  }
}

function withSignal<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function describe(err: unknown): string {
  if (err instanceof Error) return ((err as { code?: string }).code ?? err.message ?? 'error').slice(0, 200);
  return 'error';
}
