/**
 * The pieces every outbound call to a URL the service does not control shares (the subscription
 * and wallpaper fetcher, the notification channels, the SMTP relay): judge an address by its range,
 * resolve a host once, and connect to exactly the address that was judged through a pinned
 * `lookup`, so a second DNS answer can never redirect the connection (DNS rebinding).
 */
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { Agent } from 'undici';
import type { HostResolver } from '../../core/network.js';

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

/** `[::1]` → `::1`: URL host names keep the brackets, resolvers and ipaddr.js do not. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Why a host could not be turned into addresses: it has none, or the deadline passed first. */
export class ResolveError extends Error {
  constructor(readonly timedOut: boolean) {
    super(timedOut ? 'timed out' : 'could not resolve');
    this.name = 'ResolveError';
  }
}

/** The host's addresses (a literal address is its own answer); never an empty list. */
export async function resolveHost(host: string, resolve: HostResolver, signal?: AbortSignal): Promise<string[]> {
  if (ipaddr.isValid(host)) return [host];
  let addresses: string[];
  try {
    addresses = await withSignal(resolve(host), signal);
  } catch {
    throw new ResolveError(signal?.aborted === true);
  }
  if (addresses.length === 0) throw new ResolveError(false);
  return addresses;
}

/** A `lookup` for net/tls.connect that answers every query with the one checked address. */
export function pinnedLookup(address: string) {
  const family = ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4;
  return (
    _host: string,
    opts: { all?: boolean } | number | undefined,
    cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    if (typeof opts === 'object' && opts?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  };
}

/**
 * undici, imported by the first outbound call rather than at start: it costs memory in every
 * process, and many deployments never make one (subscriptions, wallpapers and channels are optional).
 * The import is kept: every `import()` call resolves the specifier again through the module loader
 * (and its hooks, when a loader such as tsx is installed), a cost each send would otherwise pay.
 */
let undici: Promise<typeof import('undici')> | null = null;
export const loadUndici = (): Promise<typeof import('undici')> => {
  undici ??= import('undici');
  // A failed import (never expected) is tried again by the next call rather than kept.
  undici.catch(() => {
    undici = null;
  });
  return undici;
};

/**
 * An undici agent that connects to `address` whatever host the URL names: one connection per
 * origin for a single request, or a few kept alive when the agent is reused (`PinnedAgents`).
 */
export async function pinnedAgent(address: string, connectTimeoutMs: number, o: { keepAlive?: boolean } = {}): Promise<Agent> {
  const { Agent } = await loadUndici();
  const connect = { lookup: pinnedLookup(address) as never, timeout: connectTimeoutMs };
  return new Agent(o.keepAlive ? { connect, connections: 8, keepAliveTimeout: 10_000 } : { connect, connections: 1, pipelining: 0 });
}

export function withSignal<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
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

/**
 * An answer's body, refused once it is over `maxBytes`: at once when its declared length says
 * so, else as soon as the bytes received pass the cap (the stream is destroyed either way).
 */
export async function readCappedBody(
  res: { headers: Record<string, string | string[] | undefined>; body: AsyncIterable<unknown> & { destroy(): unknown } },
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      res.body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
