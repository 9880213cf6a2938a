/**
 * Email through an SMTP relay with nodemailer. `security`: `tls` is TLS from the first byte
 * (usually port 465); `starttls` requires the STARTTLS upgrade and fails without it; `none` sends
 * in clear (internal relays only), without even trying STARTTLS, so credentials are never offered
 * to a server that cannot protect them unless the operator chose so. The relay host is resolved
 * once and judged by the same private-target rule as every HTTP channel; nodemailer then connects
 * to that checked address, with the original host as TLS server name (certificate check and
 * SNI). Each message has an HTML part and a plain-text part.
 *
 * One send is bounded as a whole by the channel timeout, like an HTTP channel's request: the
 * connection is cut when it runs out. nodemailer's own timeouts are per stage (connect,
 * greeting, each command), so a relay answering every command just inside one could hold a send
 * for many times it — past the delivery lease, after which another worker sends the row again.
 */
import { isIP, Socket } from 'node:net';
import { type GuardedRequestError, checkedAddress } from '../http/guarded-request.js';
import type { ChannelConfig } from './channel-configs.js';
import { scrubber, type NotifierDeps } from './channel-http.js';
import { NotifierError, type Notifier } from './notifier.js';

/**
 * SMTP reply codes 4xx are transient by definition (RFC 5321 §4.2.1); 5xx are permanent. A
 * certificate the relay presents that does not check out will not change by itself either.
 */
function smtpRetryable(err: { responseCode?: number; code?: string; message?: string }): boolean {
  if (typeof err.responseCode === 'number') return err.responseCode < 500;
  if (/certificate|self[- ]signed/i.test(err.message ?? '')) return false;
  return err.code !== 'EAUTH' && err.code !== 'ETLS' && err.code !== 'EENVELOPE' && err.code !== 'EMESSAGE';
}

export function createEmailNotifier(channel: string, config: ChannelConfig<'email'>, deps: NotifierDeps): Notifier {
  const scrub = scrubber([config.password]);
  return {
    channel,
    async send(message) {
      let address: string;
      try {
        address = await checkedAddress(config.host, deps);
      } catch (err) {
        const e = err as GuardedRequestError;
        throw new NotifierError(channel, `SMTP relay: ${e.message}`, e.retryable);
      }
      // Imported by the first email: most deployments have no email channel, and it costs memory.
      const { default: nodemailer } = await import('nodemailer');
      // A socket nodemailer connects itself (resolution, TLS, timeouts as usual) but this send
      // can destroy; under TLS it carries the TLS stream, so cutting it ends the whole session.
      const socket = new Socket();
      const deadline = setTimeout(
        () => socket.destroy(new Error(`no complete answer within ${Math.round(deps.timeoutMs / 1000)} s`)),
        deps.timeoutMs,
      );
      const transport = nodemailer.createTransport({
        socket,
        host: address,
        port: config.port,
        secure: config.security === 'tls',
        requireTLS: config.security === 'starttls',
        ignoreTLS: config.security === 'none',
        auth: config.username ? { user: config.username, pass: config.password ?? '' } : undefined,
        // SNI carries host names only (RFC 6066 §3); a relay named by its address is checked against that address.
        tls: { ...(isIP(config.host) ? {} : { servername: config.host }), ...deps.smtpTls },
        connectionTimeout: deps.timeoutMs,
        greetingTimeout: deps.timeoutMs,
        socketTimeout: deps.timeoutMs,
      });
      try {
        await transport.sendMail({
          from: config.from,
          to: config.to,
          subject: message.title,
          text: `${message.title}\n\n${message.text}`,
          html: `<!doctype html><html><body><div style="white-space: pre-wrap">${message.html}</div></body></html>`,
        });
      } catch (err) {
        const e = err as { message?: string; response?: string; responseCode?: number; code?: string };
        const text = e.response || e.message || e.code || 'sending failed';
        throw new NotifierError(channel, scrub(`SMTP: ${text}`).slice(0, 300), smtpRetryable(e));
      } finally {
        clearTimeout(deadline);
        socket.destroy();
        transport.close();
      }
    },
  };
}
