/**
 * ntfy (`https://ntfy.sh` or self-hosted): POST `/<topic>` with the Markdown body and the headers
 * Title, Priority (info 3 = default, warning 4 = high, critical 5 = urgent), Tags (the event kind
 * plus an emoji tag for warnings) and `Markdown: yes`. Header values must be ASCII, so a title with
 * other characters is sent RFC 2047-encoded (`=?UTF-8?B?…?=`), which ntfy decodes. Auth: an access
 * token as Bearer, or user and password as Basic. Bodies over 4,096 bytes would become an
 * attachment, so the body is capped there. Errors: `{code, http, error}`.
 */
import type { ChannelConfig } from './channel-configs.js';
import { ChannelHttp, parseJson, retryableStatus, truncateBytes, type NotifierDeps } from './channel-http.js';
import type { Notifier, NotificationSeverity } from './notifier.js';

export const NTFY_BASE = 'https://ntfy.sh';
const PRIORITY: Record<NotificationSeverity, string> = { info: '3', warning: '4', critical: '5' };
const SEVERITY_TAG: Record<NotificationSeverity, string | null> = { info: null, warning: 'warning', critical: 'rotating_light' };

/** A header value as is when printable ASCII, else as one RFC 2047 encoded word. */
export function headerValue(value: string): string {
  const line = value.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(line) ? line : `=?UTF-8?B?${Buffer.from(line, 'utf8').toString('base64')}?=`;
}

export function createNtfyNotifier(channel: string, config: ChannelConfig<'ntfy'>, deps: NotifierDeps): Notifier {
  const http = new ChannelHttp(channel, deps, [config.access_token, config.password]);
  const url = `${(config.server_url ?? NTFY_BASE).replace(/\/+$/, '')}/${encodeURIComponent(config.topic)}`;
  const auth = config.access_token
    ? `Bearer ${config.access_token}`
    : config.username && config.password
      ? `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`
      : null;
  return {
    channel,
    async send(message) {
      const tags = [message.kind.replace(/[^A-Za-z0-9_-]/g, ''), SEVERITY_TAG[message.severity]].filter(Boolean).join(',');
      const res = await http.send(url, {
        method: 'POST',
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          title: headerValue(truncateBytes(message.title, 250)),
          priority: PRIORITY[message.severity],
          tags,
          markdown: 'yes',
          ...(auth ? { authorization: auth } : {}),
        },
        body: truncateBytes(message.markdown || message.text, 4096),
      });
      if (res.status >= 200 && res.status < 300) return;
      const body = parseJson(res.text);
      if (body && typeof body.error === 'string') throw http.fail(`${body.error} (code ${String(body.code)})`, retryableStatus(res.status));
      throw http.httpFailure(res);
    },
  };
}
