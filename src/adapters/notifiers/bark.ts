/**
 * Bark (iOS push, `https://api.day.app` or a self-hosted bark-server): JSON POST `/push` with
 * {title, body, device_key, group, level}. Severity maps to the interruption level: info →
 * active, warning → timeSensitive, critical → critical (sounds even when muted). APNs payloads are
 * limited to 4 KB, so the body is capped at 3,000 bytes. Errors: `{code≠200, message}`.
 */
import type { ChannelConfig } from './channel-configs.js';
import { ChannelHttp, checkCodeReply, truncateBytes, type NotifierDeps } from './channel-http.js';
import type { Notifier, NotificationSeverity } from './notifier.js';

export const BARK_BASE = 'https://api.day.app';
const LEVEL: Record<NotificationSeverity, string> = { info: 'active', warning: 'timeSensitive', critical: 'critical' };

export function createBarkNotifier(channel: string, config: ChannelConfig<'bark'>, deps: NotifierDeps): Notifier {
  const http = new ChannelHttp(channel, deps, [config.device_key]);
  const url = `${(config.server_url ?? BARK_BASE).replace(/\/+$/, '')}/push`;
  return {
    channel,
    async send(message) {
      const res = await http.postJson(url, {
        title: truncateBytes(message.title, 256),
        body: truncateBytes(message.text, 3000),
        device_key: config.device_key,
        group: config.group ?? 'Fleet Admin',
        level: LEVEL[message.severity],
      });
      checkCodeReply(http, res, { code: 'code', ok: 200, message: 'message' });
    },
  };
}
