/**
 * What every HTTP channel shares: the dependencies a channel is built with, one send through the
 * guarded request that turns every failure into a `NotifierError` scrubbed of the channel's
 * secrets, and safe truncation to a provider's length limit.
 */
import { createHmac } from 'node:crypto';
import type { ConnectionOptions } from 'node:tls';
import type { HostResolver } from '../../core/network.js';
import { GuardedRequestError, type GuardedRequest, type GuardedRequestInit, type GuardedResponse } from '../http/guarded-request.js';
import { NotifierError } from './notifier.js';

export interface NotifierDeps {
  /** The guarded request, bound to the current `notify_allow_private_targets` setting. */
  request: GuardedRequest;
  /** For the SMTP relay, which connects without the HTTP request: the same resolver and rule. */
  resolve: HostResolver;
  allowPrivate: boolean;
  /** Per-send deadline (10 s in production; tests shorten it). */
  timeoutMs: number;
  /** The clock for signatures (DingTalk, Feishu); tests fix it. */
  now?: () => number;
  /** Extra TLS options for SMTP, e.g. the CA of a test server's self-signed certificate. */
  smtpTls?: ConnectionOptions;
}

/** Replaces every secret (and its URL-encoded form) with `***`. */
export function scrubber(secrets: readonly unknown[]): (text: string) => string {
  const list = secrets
    .filter((s): s is string => typeof s === 'string' && s.length >= 4)
    .flatMap((s) => [s, encodeURIComponent(s)])
    .sort((a, b) => b.length - a.length);
  return (text) => list.reduce((t, s) => t.split(s).join('***'), text);
}

/** HTTP statuses worth retrying: the provider is down or asks to slow down. */
export function retryableStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

export function parseJson(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** One send of one channel; each channel file reads the answer its provider's way. */
export class ChannelHttp {
  readonly scrub: (text: string) => string;

  constructor(
    readonly channel: string,
    private readonly deps: NotifierDeps,
    secrets: readonly unknown[],
  ) {
    this.scrub = scrubber(secrets);
  }

  async send(url: string, init: GuardedRequestInit): Promise<GuardedResponse> {
    try {
      return await this.deps.request(url, init);
    } catch (err) {
      if (err instanceof GuardedRequestError) throw this.fail(err.message, err.retryable);
      throw this.fail('request failed', true);
    }
  }

  /** POSTs a JSON body. */
  postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<GuardedResponse> {
    return this.send(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) });
  }

  /** A NotifierError with the provider's text, scrubbed and shortened. */
  fail(description: string, retryable: boolean): NotifierError {
    return new NotifierError(this.channel, this.scrub(description).slice(0, 300), retryable);
  }

  /** A non-2xx answer without a provider error body of its own. */
  httpFailure(res: GuardedResponse, detail?: string): NotifierError {
    const text = detail ?? res.text.trim().slice(0, 200);
    return this.fail(text ? `HTTP ${res.status}: ${text}` : `HTTP ${res.status}`, retryableStatus(res.status));
  }
}

/** Cuts `text` to at most `max` UTF-8 bytes on a code point boundary, marking the cut with "…". */
export function truncateBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = '';
  let size = 0;
  const budget = max - 3; // "…" is three bytes
  for (const ch of text) {
    const n = Buffer.byteLength(ch);
    if (size + n > budget) break;
    out += ch;
    size += n;
  }
  return `${out}…`;
}

/** Cuts `text` to at most `max` characters (UTF-16 units, as JavaScript-based APIs count), never splitting a pair. */
export function truncateChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${text.slice(0, cut)}…`;
}

/** base64(HMAC-SHA256(key, message)), the signature DingTalk and Feishu both use (with different key and message). */
export function hmacBase64(key: string, message: string): string {
  return createHmac('sha256', key).update(message, 'utf8').digest('base64');
}

/** A URL with extra query parameters appended (the existing query, e.g. access_token, kept). */
export function withQuery(raw: string, params: Record<string, string>): string {
  const url = new URL(raw);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/** Title and body as one Markdown document, for providers without a separate title field. */
export function titledMarkdown(title: string, markdown: string): string {
  return markdown ? `**${title}**\n\n${markdown}` : `**${title}**`;
}

/**
 * Reads the answer of a provider that reports errors as `{<codeField>: ≠ok, <messageField>}`,
 * often with HTTP 200. A non-2xx status without that body is an HTTP failure. `retryCodes` are the
 * provider's own "slow down / try later" codes.
 */
export function checkCodeReply(
  http: ChannelHttp,
  res: GuardedResponse,
  o: { code: string; ok: number; message: string; retryCodes?: readonly number[] },
): Record<string, unknown> {
  const body = parseJson(res.text);
  const code = body?.[o.code];
  if (body && typeof code === 'number' && code !== o.ok) {
    const text = typeof body[o.message] === 'string' && body[o.message] ? String(body[o.message]) : `error ${code}`;
    const retryable = retryableStatus(res.status) || (o.retryCodes ?? []).includes(code);
    throw http.fail(`${text} (code ${code})`, retryable);
  }
  if (res.status < 200 || res.status >= 300) throw http.httpFailure(res);
  if (!body || typeof code !== 'number') throw http.fail(`unexpected answer (HTTP ${res.status})`, false);
  return body;
}
