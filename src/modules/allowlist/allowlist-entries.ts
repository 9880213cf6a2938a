/**
 * Allowlist entries: an IPv4 address with an optional `/bits`, or a domain name whose
 * top-level label is alphabetic. Lists are stored comma-joined in settings.
 */
import ipaddr from 'ipaddr.js';
import { BadRequestError } from '../../core/errors.js';

const IPV4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/;
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

function validOctet(s: string): boolean {
  // A leading zero is ambiguous (octal in some parsers), so it is refused.
  return (s === '0' || !s.startsWith('0')) && Number(s) <= 255;
}

export function isIpv4Entry(entry: string): boolean {
  const m = IPV4_CIDR.exec(entry);
  if (!m) return false;
  if (![m[1], m[2], m[3], m[4]].every(validOctet)) return false;
  return m[5] === undefined || (validOctet(m[5]) && Number(m[5]) <= 32);
}

export function isDomainEntry(entry: string): boolean {
  return DOMAIN.test(entry);
}

/** The stored form of a valid entry (domains lower-cased), or null when it is not valid. */
export function normalizeEntry(raw: string): string | null {
  const entry = raw.trim();
  if (isIpv4Entry(entry)) return entry;
  if (isDomainEntry(entry)) return entry.toLowerCase().replace(/\.$/, '');
  return null;
}

/** Trims, skips empty entries, validates (400 naming the first bad entry) and drops duplicates. */
export function validateEntries(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of list) {
    if (raw.trim() === '') continue;
    const entry = normalizeEntry(raw);
    if (entry === null) {
      throw new BadRequestError(`Invalid allowlist entry: ${JSON.stringify(raw.trim().slice(0, 100))} (expected an IPv4 address, an IPv4/bits range or a domain name)`, 'allowlist_entry_invalid');
    }
    out.push(entry);
  }
  return dedupe(out);
}

/** One line of a batch as `validateEntries` judges it: its stored form, or why it is refused. */
export interface EntryCheck {
  line: number;
  input: string;
  entry: string | null;
  error: 'invalid' | null;
}

/** Every non-empty line judged by the rule `validateEntries` applies (1-based line numbers). */
export function checkEntries(list: readonly string[]): EntryCheck[] {
  const out: EntryCheck[] = [];
  list.forEach((raw, i) => {
    if (raw.trim() === '') return;
    const entry = normalizeEntry(raw);
    out.push({ line: i + 1, input: raw.trim(), entry, error: entry === null ? 'invalid' : null });
  });
  return out;
}

export function dedupe(list: readonly string[]): string[] {
  return [...new Set(list)];
}

export function splitList(stored: string | null): string[] {
  return (stored ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
}

export function joinList(list: readonly string[]): string {
  return list.join(',');
}

/** A host a subscription names: an IPv4 or IPv6 address or a domain, in stored form; else null. */
export function normalizeHost(raw: string): string | null {
  const host = raw.trim().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === '') return null;
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return host;
  if (host.includes(':') && ipaddr.IPv6.isValid(host)) return ipaddr.IPv6.parse(host).toString();
  return isDomainEntry(host) ? host.toLowerCase() : null;
}
