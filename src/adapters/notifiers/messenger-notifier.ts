/**
 * The messaging bot channel: a Telegram-compatible Bot API at `MESSENGER_API_BASE`
 * (`/bot<token>/<method>`, JSON in, `{ ok, result | description }` out). The token is only ever
 * part of the request path; error texts are scrubbed of it before they leave this file.
 */
import type { Dispatcher } from 'undici';
import { GuardedRequestError } from '../http/guarded-request.js';
import { loadUndici, readCappedBody } from '../http/pinned-target.js';
import { NotifierError, type NotificationMessage, type Notifier } from './notifier.js';

export const MESSENGER_TIMEOUT_MS = 10_000;
/** getUpdates with 100 updates stays far below this; anything larger is not a bot API. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export interface MessengerClientOptions {
  apiBase: string;
  token: string;
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  /** Channel name used in errors (`messenger` or `messenger_offline`). */
  channel?: string;
  /**
   * Sends the request instead of undici (the channel type passes the guarded request, which checks
   * the target and caps the answer); resolves with the status and body, rejects when unreachable.
   */
  transport?: (url: string, init: { method: string; headers: Record<string, string>; body: string }) => Promise<{ status: number; text: string }>;
}

export interface MessengerChatRaw {
  id: number | string;
  type?: string;
  title?: string;
  username?: string;
  first_name?: string;
}

export type MessengerUpdate = Record<string, unknown> & { update_id?: number };

export interface WebhookInfo {
  url?: string;
  [field: string]: unknown;
}

export class MessengerBotClient {
  private readonly timeoutMs: number;
  readonly channel: string;

  constructor(private readonly o: MessengerClientOptions) {
    this.timeoutMs = o.timeoutMs ?? MESSENGER_TIMEOUT_MS;
    this.channel = o.channel ?? 'messenger';
  }

  sendMessage(chatId: string, html: string): Promise<unknown> {
    return this.call('sendMessage', { chat_id: chatId, text: html, parse_mode: 'HTML', disable_web_page_preview: true });
  }

  /** The most recent updates (a negative offset reads from the end without confirming any). */
  getUpdates(limit = 100): Promise<MessengerUpdate[]> {
    return this.call<MessengerUpdate[]>('getUpdates', { offset: -limit, limit });
  }

  getWebhookInfo(): Promise<WebhookInfo> {
    return this.call<WebhookInfo>('getWebhookInfo', {});
  }

  deleteWebhook(): Promise<unknown> {
    return this.call('deleteWebhook', { drop_pending_updates: false });
  }

  async call<T = unknown>(method: string, params: Record<string, unknown>): Promise<T> {
    const token = this.o.token.replace(/[^A-Za-z0-9:_.-]/g, (ch) => encodeURIComponent(ch));
    const url = `${this.o.apiBase.replace(/\/+$/, '')}/bot${token}/${method}`;
    let status: number;
    let text: string;
    try {
      ({ status, text } = await this.post(url, JSON.stringify(params)));
    } catch (err) {
      const retryable = err instanceof GuardedRequestError ? err.retryable : true;
      throw new NotifierError(this.channel, this.scrub(describeFailure(err)), retryable);
    }
    type Reply = { ok?: boolean; result?: unknown; description?: unknown };
    let payload: Reply | null;
    try {
      payload = JSON.parse(text) as Reply | null;
    } catch {
      payload = null;
    }
    if (!payload || typeof payload !== 'object' || payload.ok !== true) {
      const description =
        payload && typeof payload.description === 'string' && payload.description
          ? payload.description
          : `HTTP ${status}`;
      // 4xx (bad token, unknown chat, blocked bot) will fail the same way again; 429 and 5xx may not.
      const retryable = status === 429 || status >= 500 || status < 400;
      throw new NotifierError(this.channel, this.scrub(description.slice(0, 300)), retryable);
    }
    return payload.result as T;
  }

  private async post(url: string, body: string): Promise<{ status: number; text: string }> {
    const headers = { 'content-type': 'application/json' };
    if (this.o.transport) return this.o.transport(url, { method: 'POST', headers, body });
    // Imported by the first call: a deployment without a messenger bot never loads undici.
    const { request } = await loadUndici();
    const res = await request(url, {
      method: 'POST',
      headers,
      body,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      signal: AbortSignal.timeout(this.timeoutMs),
      dispatcher: this.o.dispatcher,
    });
    const answer = await readCappedBody(res, MAX_RESPONSE_BYTES, () => new Error('response too large'));
    return { status: res.statusCode, text: answer.toString('utf8') };
  }

  private scrub(text: string): string {
    return this.o.token ? text.split(this.o.token).join('***') : text;
  }
}

/** A Notifier that posts to one chat through one bot. */
export class MessengerNotifier implements Notifier {
  readonly channel: string;

  constructor(
    private readonly client: MessengerBotClient,
    private readonly chatId: string,
  ) {
    this.channel = client.channel;
  }

  async send(message: NotificationMessage): Promise<void> {
    await this.client.sendMessage(this.chatId, message.html);
  }
}

export function createMessengerNotifier(o: MessengerClientOptions & { chatId: string }): MessengerNotifier {
  return new MessengerNotifier(new MessengerBotClient(o), o.chatId);
}

function describeFailure(err: unknown): string {
  if (err instanceof GuardedRequestError) return err.message;
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'request timed out';
    const code = (err as { code?: string }).code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'request timed out';
    return `request failed: ${err.message || code || 'unknown error'}`.slice(0, 300);
  }
  return 'request failed';
}
