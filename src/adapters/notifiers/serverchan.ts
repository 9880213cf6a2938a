/**
 * ServerChan (Server酱). A Server酱³ key `sctp<uid>t…` posts to
 * `https://<uid>.push.ft07.com/send/<key>.send`; any other key is Turbo,
 * `https://sctapi.ftqq.com/<key>.send`. `api_base`, when set, replaces the host part
 * (`<api_base>/send/<key>.send` for ³ keys, `<api_base>/<key>.send` for Turbo). JSON {title, desp}
 * with desp in Markdown; title at most 32 characters, desp at most 32 KB. Errors: `{code≠0, message}`.
 */
import type { ChannelConfig } from './channel-configs.js';
import { ChannelHttp, checkCodeReply, truncateBytes, truncateChars, type NotifierDeps } from './channel-http.js';
import type { Notifier } from './notifier.js';

export function serverchanUrl(key: string, apiBase?: string): string {
  const v3 = /^sctp(\d+)t/i.exec(key);
  const path = encodeURIComponent(key);
  if (v3) return `${(apiBase ?? `https://${v3[1]}.push.ft07.com`).replace(/\/+$/, '')}/send/${path}.send`;
  return `${(apiBase ?? 'https://sctapi.ftqq.com').replace(/\/+$/, '')}/${path}.send`;
}

export function createServerchanNotifier(channel: string, config: ChannelConfig<'serverchan'>, deps: NotifierDeps): Notifier {
  const http = new ChannelHttp(channel, deps, [config.send_key]);
  return {
    channel,
    async send(message) {
      const res = await http.postJson(serverchanUrl(config.send_key, config.api_base), {
        title: truncateChars(message.title, 32),
        desp: truncateBytes(message.markdown || message.text, 32_000),
      });
      checkCodeReply(http, res, { code: 'code', ok: 0, message: 'message' });
    },
  };
}
