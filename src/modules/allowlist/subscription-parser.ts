/**
 * Host extraction from a proxy subscription: SS (SIP002 and legacy), VMess, VLESS, Trojan and
 * Hysteria2 (`hysteria2://`, `hy2://`) share links, in a plain body or a base64 one (standard or
 * URL-safe alphabet, padded or not). Hosts come back deduplicated in first-seen order.
 */
import { dedupe, normalizeHost } from './allowlist-entries.js';

const LINK = /^(ss|vmess|vless|trojan|hysteria2|hy2):\/\//i;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Decodes standard or URL-safe base64, with or without padding; null when it is not base64. */
export function decodeBase64Loose(text: string): string | null {
  const compact = text.replace(/\s+/g, '');
  if (compact === '' || !BASE64.test(compact)) return null;
  const std = compact.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (std.length % 4 === 1) return null;
  const decoded = Buffer.from(std + '='.repeat((4 - (std.length % 4)) % 4), 'base64').toString('utf8');
  return decoded.includes('\uFFFD') ? null : decoded;
}

function linksIn(text: string): string[] {
  return text
    .split(/\s+/)
    .map((l) => l.trim())
    .filter((l) => LINK.test(l));
}

function safeDecodeUri(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** `host:port`, `[v6]:port` or a bare host → the host part. */
function hostOfHostPort(hostport: string): string {
  const hp = hostport.trim();
  if (hp.startsWith('[')) {
    const end = hp.indexOf(']');
    return end > 0 ? hp.slice(1, end) : '';
  }
  const colon = hp.indexOf(':');
  return colon >= 0 ? hp.slice(0, colon) : hp;
}

/** The authority's host of `scheme://[userinfo@]host[:port][/path][?query]` (fragment already cut). */
function authorityHost(rest: string): string {
  const main = rest.split('?')[0];
  const at = main.lastIndexOf('@');
  const afterUser = at >= 0 ? main.slice(at + 1) : main;
  return hostOfHostPort(afterUser.split('/')[0]);
}

function ssHost(rest: string): string {
  const main = rest.split('?')[0];
  if (main.includes('@')) return authorityHost(rest); // SIP002: base64(method:pass)@host:port
  // Legacy: the whole `method:pass@host:port` is base64.
  const decoded = decodeBase64Loose(main.replace(/\/+$/, ''));
  if (!decoded?.includes('@')) return '';
  return hostOfHostPort(decoded.slice(decoded.lastIndexOf('@') + 1).split(/[/?]/)[0]);
}

function vmessHost(rest: string): string {
  const decoded = decodeBase64Loose(rest.split('?')[0]);
  if (decoded) {
    try {
      const obj = JSON.parse(decoded) as { add?: unknown };
      return typeof obj.add === 'string' ? obj.add : '';
    } catch {
      return '';
    }
  }
  // Some clients export VMess in the URI form `vmess://uuid@host:port?...`.
  return authorityHost(rest);
}

/** The host a single share link points at, in stored form, or null. */
export function hostOfLink(link: string): string | null {
  const m = LINK.exec(link);
  if (!m) return null;
  const scheme = m[1].toLowerCase();
  const rest = link.slice(m[0].length).split('#')[0];
  let host: string;
  if (scheme === 'ss') host = ssHost(rest);
  else if (scheme === 'vmess') host = vmessHost(rest);
  else host = authorityHost(rest);
  return normalizeHost(safeDecodeUri(host));
}

export function extractHosts(body: string): string[] {
  let links = linksIn(body);
  if (links.length === 0) {
    const decoded = decodeBase64Loose(body);
    if (decoded) links = linksIn(decoded);
  }
  const hosts: string[] = [];
  for (const link of links) {
    const h = hostOfLink(link);
    if (h) hosts.push(h);
  }
  return dedupe(hosts);
}
