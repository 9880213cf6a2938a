/** Address helpers shared by the login checks, the allowlist and the outbound-fetch guard. */
import dns from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Turns a host name into its addresses; tests inject one that answers without DNS. */
export type HostResolver = (host: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Normalises an address; IPv4-mapped IPv6 (::ffff:a.b.c.d) becomes plain IPv4. */
export function normalizeIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    const parsed = ipaddr.parse(ip.trim());
    return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
      ? (parsed as ipaddr.IPv6).toIPv4Address()
      : parsed;
  } catch {
    return null;
  }
}
