/**
 * Gotify (self-hosted): POST `<server>/message` with the application token in `X-Gotify-Key`,
 * JSON {title, message, priority, extras: {"client::display": {contentType: "text/markdown"}}}.
 * Priorities: info 4, warning 6 (both notify with sound on Android), critical 8 (high). Errors:
 * `{error, errorCode, errorDescription}` with the HTTP status.
 */
import type { ChannelConfig } from './channel-configs.js';
import { ChannelHttp, parseJson, retryableStatus, truncateChars, type NotifierDeps } from './channel-http.js';
import type { Notifier, NotificationSeverity } from './notifier.js';

const PRIORITY: Record<NotificationSeverity, number> = { info: 4, warning: 6, critical: 8 };

export function createGotifyNotifier(channel: string, config: ChannelConfig<'gotify'>, deps: NotifierDeps): Notifier {
  const http = new ChannelHttp(channel, deps, [config.app_token]);
  const url = `${config.server_url.replace(/\/+$/, '')}/message`;
  return {
    channel,
    async send(message) {
      const res = await http.postJson(
        url,
        {
          title: message.title,
          message: truncateChars(message.markdown || message.text, 16_000),
          priority: PRIORITY[message.severity],
          extras: { 'client::display': { contentType: 'text/markdown' } },
        },
        { 'x-gotify-key': config.app_token },
      );
      if (res.status >= 200 && res.status < 300) return;
      const body = parseJson(res.text);
      if (body && typeof body.error === 'string') {
        const detail = typeof body.errorDescription === 'string' && body.errorDescription ? `: ${body.errorDescription}` : '';
        throw http.fail(`${body.error}${detail}`, retryableStatus(res.status));
      }
      throw http.httpFailure(res);
    },
  };
}
