/**
 * A generic webhook: any http(s) URL, POST/PUT/PATCH with a JSON or form body, or GET with the
 * fields as query parameters. The body comes from `body_template` with the placeholders
 * {{title}} {{text}} {{markdown}} {{kind}} {{severity}}: in a JSON body each value is inserted
 * JSON-escaped (so the template places it inside quotes) and the result must be valid JSON; in a
 * form body each value is URL-encoded. Without a template the body is
 * {title, text, markdown, kind, severity}. Custom headers may not set Host, Content-Length or
 * hop-by-hop headers. With a secret, `X-Signature: sha256=<hex HMAC-SHA256(secret, body bytes)>`
 * signs the exact bytes sent (for GET, the empty body), so the receiver can check origin and integrity.
 */
import { createHmac } from 'node:crypto';
import type { ChannelConfig } from './channel-configs.js';
import { ChannelHttp, type NotifierDeps } from './channel-http.js';
import type { NotificationMessage, Notifier } from './notifier.js';

const FIELDS = ['title', 'text', 'markdown', 'kind', 'severity'] as const;
/** Set by the HTTP client itself, or meaningful for one connection only (RFC 9110 §7.6.1). */
const FORBIDDEN_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'x-signature',
]);

export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The headers a webhook config may not set, or an empty list. */
export function forbiddenWebhookHeaders(headers: Record<string, string> | undefined): string[] {
  return Object.keys(headers ?? {}).filter((h) => FORBIDDEN_HEADERS.has(h.toLowerCase()));
}

/** Fills a template; `encode` turns each value into what the body format needs. */
export function renderTemplate(template: string, message: NotificationMessage, encode: (value: string) => string): string {
  return template.replace(/\{\{\s*(title|text|markdown|kind|severity)\s*\}\}/g, (_m, field: (typeof FIELDS)[number]) => encode(message[field]));
}

function renderBody(config: ChannelConfig<'webhook'>, message: NotificationMessage): string | null {
  const fields = Object.fromEntries(FIELDS.map((f) => [f, message[f]]));
  if (config.body_format === 'form') {
    if (!config.body_template) return new URLSearchParams(fields).toString();
    return renderTemplate(config.body_template, message, encodeURIComponent);
  }
  if (!config.body_template) return JSON.stringify(fields);
  const body = renderTemplate(config.body_template, message, (v) => JSON.stringify(v).slice(1, -1));
  try {
    JSON.parse(body);
  } catch {
    return null;
  }
  return body;
}

export function createWebhookNotifier(channel: string, config: ChannelConfig<'webhook'>, deps: NotifierDeps): Notifier {
  const http = new ChannelHttp(channel, deps, [config.secret, ...Object.values(config.headers ?? {})]);
  return {
    channel,
    async send(message) {
      const forbidden = forbiddenWebhookHeaders(config.headers);
      if (forbidden.length) throw http.fail(`headers not allowed in a webhook: ${forbidden.join(', ')}`, false);
      let url = config.url;
      let body = '';
      const headers: Record<string, string> = { ...config.headers };
      if (config.method === 'GET') {
        const u = new URL(config.url);
        for (const f of ['title', 'text', 'kind', 'severity'] as const) u.searchParams.set(f, message[f]);
        url = u.toString();
      } else {
        const rendered = renderBody(config, message);
        if (rendered === null) throw http.fail('the body template does not give valid JSON', false);
        body = rendered;
        const type = config.body_format === 'form' ? 'application/x-www-form-urlencoded' : 'application/json; charset=utf-8';
        if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = type;
      }
      if (config.secret) headers['x-signature'] = webhookSignature(config.secret, body);
      const res = await http.send(url, { method: config.method, headers, body: config.method === 'GET' ? undefined : body });
      if (res.status >= 200 && res.status < 300) return;
      throw http.httpFailure(res);
    },
  };
}
