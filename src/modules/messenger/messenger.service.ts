/**
 * The bot channel endpoints: a test message, the token reveals and chat discovery,
 * each for the default bot and the offline bot. Bot API refusals and transport failures are
 * 502 `Messenger API: <description>`.
 */
import { MessengerBotClient } from '../../adapters/notifiers/messenger-notifier.js';
import { NotifierError } from '../../adapters/notifiers/notifier.js';
import type { Actor } from '../../core/actor.js';
import type { AdminRow } from '../../db/types.js';
import { BadGatewayError, BadRequestError, NotFoundError } from '../../core/errors.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { SecretSettings } from '../../platform/settings/secret-settings.js';
import { botCredentials, type BotKind } from '../../platform/notifications/bot-credentials.js';
import { discoverChats, type ChatEntry } from './chat-discovery.js';

export interface MessengerServiceDeps {
  settings: RuntimeSettings;
  secrets: SecretSettings;
  audit: AuditService;
  apiBase: string;
  timeoutMs?: number;
  /** The login's check of an admin's own password (400 wrong, 429 locked out; counted and audited). */
  requireCurrentPassword?(actor: Actor, admin: AdminRow, password: string, endpoint: string): Promise<void>;
}

function label(kind: BotKind): string {
  return kind === 'offline' ? 'Offline messenger bot' : 'Messenger bot';
}

export class MessengerService {
  constructor(private readonly d: MessengerServiceDeps) {}

  async sendTest(kind: BotKind): Promise<{ success: true }> {
    const creds = botCredentials(kind, this.d.settings, this.d.secrets);
    if (!creds.token || !creds.chatId) throw new BadRequestError(`${label(kind)} token and chat id must both be configured`, 'messenger_not_configured');
    const name = this.d.settings.get('system_title') || this.d.settings.get('system_name') || 'Fleet Admin';
    const html =
      `<b>${escapeHtml(name)}</b>\n` +
      `Test message from the ${kind === 'offline' ? 'offline alert' : 'notification'} bot. Delivery works.`;
    await this.upstream(() => this.client(creds.token!, creds.channel).sendMessage(creds.chatId!, html));
    return { success: true };
  }

  async revealToken(actor: Actor, kind: BotKind, admin?: AdminRow, currentPassword?: string): Promise<{ key: string; value: string }> {
    if (currentPassword !== undefined && admin && this.d.requireCurrentPassword) {
      const path = kind === 'offline' ? '/messenger/offline/reveal-token' : '/messenger/reveal-token';
      await this.d.requireCurrentPassword(actor, admin, currentPassword, `POST /api/settings${path}`);
    }
    const creds = botCredentials(kind, this.d.settings, this.d.secrets);
    // Decryption errors propagate (500): a stored but unreadable token is not "not stored".
    const value = this.d.secrets.read(creds.tokenKey);
    if (value === null) throw new NotFoundError(`${label(kind)} token is not stored`, 'secret_not_stored');
    const action = kind === 'offline' ? 'reveal_offline_messenger_token' : 'reveal_messenger_token';
    await this.d.audit.record(actor, action, { type: 'setting', id: creds.tokenKey });
    return { key: creds.tokenKey, value };
  }

  async chats(kind: BotKind): Promise<{ chats: ChatEntry[]; count: number }> {
    const creds = botCredentials(kind, this.d.settings, this.d.secrets);
    if (!creds.token) throw new BadRequestError(`${label(kind)} token is not configured`, 'messenger_not_configured');
    const client = this.client(creds.token, creds.channel);
    // getUpdates is refused while a webhook is active, so an active one is cleared first.
    const hook = await this.upstream(() => client.getWebhookInfo());
    if (hook && typeof hook.url === 'string' && hook.url !== '') await this.upstream(() => client.deleteWebhook());
    const updates = await this.upstream(() => client.getUpdates(100));
    const chats = discoverChats(updates);
    return { chats, count: chats.length };
  }

  private client(token: string, channel: string): MessengerBotClient {
    return new MessengerBotClient({ apiBase: this.d.apiBase, token, channel, timeoutMs: this.d.timeoutMs });
  }

  private async upstream<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const description = err instanceof NotifierError ? err.description : 'request failed';
      throw new BadGatewayError(`Messenger API: ${description}`, 'messenger_api_error');
    }
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
