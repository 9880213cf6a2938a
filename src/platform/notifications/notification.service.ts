/**
 * The one entry point other modules use to notify admins (monitoring alerts, script completion,
 * the restart notice). Each kind is gated by its `notify_<kind>` setting (on when unset); offline
 * alerts prefer the dedicated offline bot. Sending never throws: failures are logged, without
 * the token.
 */
import type { Notifier } from '../../adapters/notifiers/notifier.js';
import { createMessengerNotifier } from '../../adapters/notifiers/messenger-notifier.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { RuntimeSettings } from '../settings/runtime-settings.js';
import type { SecretSettings } from '../settings/secret-settings.js';
import { botCredentials, type BotKind } from './bot-credentials.js';
import type { Metrics } from '../metrics/metrics.js';

export const NOTIFICATION_KINDS = [
  'alert_cpu',
  'alert_mem',
  'alert_disk',
  'alert_offline',
  'recovery',
  'time_drift',
  'system_cache',
  'system_db',
  'restart',
  'script_complete',
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface NotifierTarget {
  apiBase: string;
  token: string;
  chatId: string;
  channel: string;
}

export interface NotificationServiceDeps {
  settings: RuntimeSettings;
  secrets: SecretSettings;
  apiBase: string;
  log: Logger;
  /** Builds the channel for one bot and chat (tests and future channels may swap it). */
  createNotifier?: (target: NotifierTarget) => Notifier;
  /** Counts each notification's outcome. */
  metrics?: Pick<Metrics, 'notification'>;
}

export class NotificationService {
  private readonly createNotifier: (target: NotifierTarget) => Notifier;

  constructor(private readonly d: NotificationServiceDeps) {
    this.createNotifier = d.createNotifier ?? ((t) => createMessengerNotifier(t));
  }

  enabled(kind: NotificationKind): boolean {
    return this.d.settings.getBool(`notify_${kind}`, true);
  }

  /** The channel that would carry this kind right now, or null when no bot is fully configured. */
  notifierFor(kind: NotificationKind): Notifier | null {
    const order: BotKind[] = kind === 'alert_offline' ? ['offline', 'default'] : ['default'];
    for (const bot of order) {
      const creds = botCredentials(bot, this.d.settings, this.d.secrets);
      if (creds.token && creds.chatId) {
        return this.createNotifier({ apiBase: this.d.apiBase, token: creds.token, chatId: creds.chatId, channel: creds.channel });
      }
    }
    return null;
  }

  /**
   * True when the message was delivered; false when switched off, unconfigured or failed.
   * `kind` decides whether it is sent (its notify_* setting); `routeAs` which bot carries it, so
   * a server coming back online goes where its offline alert went.
   */
  async notify(kind: NotificationKind, html: string, routeAs: NotificationKind = kind): Promise<boolean> {
    try {
      if (!this.enabled(kind)) {
        this.d.metrics?.notification(kind, 'skipped');
        return false;
      }
      const notifier = this.notifierFor(routeAs);
      if (!notifier) {
        this.d.log.info({ kind }, 'notification skipped: messenger bot token or chat id not configured');
        this.d.metrics?.notification(kind, 'skipped');
        return false;
      }
      await notifier.send(htmlOnlyMessage(kind, html));
      this.d.metrics?.notification(kind, 'sent');
      return true;
    } catch (err) {
      const description = errorMessage(err);
      this.d.log.warn({ kind, err: description }, 'notification could not be sent');
      this.d.metrics?.notification(kind, 'failed');
      return false;
    }
  }
}

/** Until the message format module exists: the bot only reads `html`; the rest is derived from it. */
function htmlOnlyMessage(kind: string, html: string) {
  const text = html.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return { title: text.split('\n')[0], text, markdown: text, html, kind, severity: 'warning' as const };
}
