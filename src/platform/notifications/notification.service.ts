/**
 * The one entry point other modules use to notify admins. A caller hands a structured event and
 * gets on at once: the service checks the event's global `notify_*` switch, routes it (channels
 * subscribed to it and matching the server's tags, plus the settings-configured messenger bot for
 * the kinds it has always received), renders it once in the operator's language and writes one
 * outbox row per destination in one insert. The delivery loop sends the rows. Notifying never
 * throws and never waits for a channel: failures (the database away included) are logged.
 */
import type { NotificationMessage, Notifier } from '../../adapters/notifiers/notifier.js';
import { createMessengerNotifier } from '../../adapters/notifiers/messenger-notifier.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import type { RuntimeSettings } from '../settings/runtime-settings.js';
import type { SecretSettings } from '../settings/secret-settings.js';
import { botCredentials, type BotKind } from './bot-credentials.js';
import type { ChannelSource, DeliverableChannel } from './channel-contract.js';
import { languageOf, render } from './message-format.js';
import { gateOf, legacyKind, type NotificationEvent, serverOf } from './notification-events.js';
import { DedupMemo } from './dedup-memo.js';
import { type Destination, OutboxDelivery, type DeliveryOptions } from './outbox-delivery.js';
import type { NewOutboxRow, OutboxRepository } from './outbox.repository.js';
import { needsTags, type Route, routeEvent } from './routing.js';

export { LEGACY_KINDS as NOTIFICATION_KINDS, type LegacyKind as NotificationKind } from './notification-events.js';

export interface NotifierTarget {
  apiBase: string;
  token: string;
  chatId: string;
  channel: string;
}

/** Until the channels module is wired in: no channels, only the messenger bot. */
export const NO_CHANNELS: ChannelSource = { deliverable: async () => [], byId: async () => null };

export interface NotificationServiceDeps {
  settings: RuntimeSettings;
  secrets: SecretSettings;
  apiBase: string;
  log: Logger;
  outbox: OutboxRepository;
  /** Lease owner identity of this process. */
  owner: string;
  channels?: ChannelSource;
  /** Builds a channel's notifier (the adapters' `createNotifier`). */
  createChannelNotifier?: (channel: DeliverableChannel) => Notifier;
  /** Builds the messenger bot's notifier for one bot and chat. */
  createNotifier?: (target: NotifierTarget) => Notifier;
  /** A server's tags, for channels that filter by tag. */
  serverTags?: (serverId: number) => Promise<string[]>;
  metrics?: Pick<Metrics, 'notification' | 'notificationDelivery'>;
  now?: () => number;
  /** Identical alerts (same kind, server and destination) inside this window collapse into one. */
  dedupWindowMs?: number;
  delivery?: Partial<DeliveryOptions>;
}

export const DEDUP_WINDOW_MS = 10 * 60_000;
const ROUND_SNAPSHOT_MS = 200;

export class NotificationService {
  readonly delivery: OutboxDelivery;
  private readonly createNotifier: (target: NotifierTarget) => Notifier;
  private channels: ChannelSource;
  private readonly now: () => number;
  private deliveringHere = false;
  private readonly dedup = new DedupMemo();
  private snapshot: { at: number; version: number; source: ChannelSource; channels: Promise<DeliverableChannel[]> } | null = null;

  constructor(private readonly d: NotificationServiceDeps) {
    this.createNotifier = d.createNotifier ?? ((t) => createMessengerNotifier(t));
    this.channels = d.channels ?? NO_CHANNELS;
    this.now = d.now ?? (() => Date.now());
    this.delivery = new OutboxDelivery({
      repo: d.outbox,
      resolve: (destination) => this.resolve(destination),
      onHealth: (destination, name, up, error) =>
        this.notify({ kind: 'infrastructure', component: 'channel', up, channelName: name, error: error ?? undefined }, destination),
      owner: d.owner,
      now: this.now,
      log: d.log,
      metrics: d.metrics,
      options: d.delivery,
    });
  }

  /**
   * Connects the channels module, which is built after the platform (it needs the audit log and
   * the password check the platform's consumers provide); until then only the messenger bot is a
   * destination. A source injected at construction (tests, benchmarks) is kept.
   */
  connectChannels(channels: ChannelSource): void {
    if (this.channels === NO_CHANNELS) this.channels = channels;
  }

  /**
   * Sends the test message to one channel now, enabled or not, past the outbox: the operator
   * waits for the provider's answer, and its refusal reaches them as thrown.
   */
  async sendTest(channel: DeliverableChannel): Promise<void> {
    if (!this.d.createChannelNotifier) throw new Error('no channel notifier configured');
    const systemName = this.d.settings.get('system_name') || 'Fleet Admin';
    const message = this.render({ kind: 'test', channelName: channel.name, systemName });
    await this.d.createChannelNotifier(channel).send(message);
  }

  /** Whether the event's global switch lets it through (on when unset). */
  enabled(e: NotificationEvent): boolean {
    const gate = gateOf(e);
    return gate === null || this.d.settings.getBool(gate, true);
  }

  /**
   * Queues the event for every destination it routes to; answers how many rows were queued
   * (0 when switched off, unrouted, deduplicated, or on failure). Never rejects.
   * `exclude`: a destination that must not get it (a failing channel is not told of itself).
   */
  async notify(e: NotificationEvent, exclude: string | null = null): Promise<number> {
    const label = legacyKind(e) ?? e.kind;
    let routes: Route[] = [];
    let message: NotificationMessage | null = null;
    try {
      if (!this.enabled(e)) {
        this.d.metrics?.notification(label, 'skipped');
        return 0;
      }
      // A database outage is itself announced: its notice must not depend on reading channels.
      const channels = await this.currentChannels().catch((err: unknown) => {
        if (e.kind === 'infrastructure') return [];
        throw err;
      });
      const server = serverOf(e);
      const tags = server && needsTags(e, channels) ? (server.tags ?? (await this.d.serverTags?.(server.id)) ?? []) : null;
      const bots = { default: this.bot('default') !== null, offline: this.bot('offline') !== null };
      routes = routeEvent(e, channels, tags, bots, exclude);
      if (routes.length === 0) {
        this.d.log.info({ kind: e.kind }, 'notification skipped: no channel subscribed and messenger bot not configured');
        this.d.metrics?.notification(label, 'skipped');
        return 0;
      }
      const nowMs = this.now();
      const created = new Date(nowMs).toISOString();
      const dedupOf = (destination: string) => {
        if (server) return `${e.kind}:${server.id}:${destination}`;
        if (e.kind === 'infrastructure' && e.component === 'channel') return `${e.kind}:${e.channelName}:${e.up}:${destination}`;
        return null;
      };
      // Rendered only for the destinations left after dedup (a repeated alert renders nothing).
      let rows: Array<Omit<NewOutboxRow, 'payload'>> = routes.map((r) => ({
        event_kind: e.kind,
        destination: r.destination,
        channel_type: r.channelType,
        dedup_key: dedupOf(r.destination),
        state: 'pending',
        attempts: 0,
        next_attempt_at: created,
        created_at: created,
      }));
      const keys = rows.map((r) => r.dedup_key).filter((k): k is string => !!k);
      const sinceMs = nowMs - (this.d.dedupWindowMs ?? DEDUP_WINDOW_MS);
      const release = await this.dedup.hold(keys);
      try {
        // Every destination already had this alert from here inside the window: nothing to read.
        const seen = this.dedup.allSeen(keys, sinceMs) ? new Set(keys) : await this.d.outbox.recentDedupKeys(keys, new Date(sinceMs).toISOString());
        rows = rows.filter((r) => !r.dedup_key || !seen.has(r.dedup_key));
        if (rows.length === 0) {
          this.d.metrics?.notification(label, 'skipped');
          return 0;
        }
        message = this.render(e);
        const payload = JSON.stringify(message);
        await this.d.outbox.enqueue(rows.map((r) => ({ ...r, payload })));
        this.dedup.remember(rows.map((r) => r.dedup_key).filter((k): k is string => !!k), nowMs, sinceMs);
      } finally {
        release();
      }
      this.d.metrics?.notification(label, 'sent');
      if (this.deliveringHere) this.delivery.wake(rows.map((r) => r.destination));
      return rows.length;
    } catch (err) {
      this.d.log.warn({ kind: e.kind, err: errorMessage(err) }, 'notification could not be queued');
      this.d.metrics?.notification(label, 'failed');
      // The outbox lives in the database: a notice about the database (or cache) being away is
      // sent straight away instead, once, without retries.
      if (e.kind === 'infrastructure' && routes.length > 0) {
        void this.sendDirect(routes, message ?? this.render(e));
      }
      return 0;
    }
  }

  /** A message in the language the operator chose for notifications. */
  private render(e: Parameters<typeof render>[0]): NotificationMessage {
    return render(e, languageOf(this.d.settings.get('notify_language')));
  }

  private async sendDirect(routes: Route[], message: NotificationMessage): Promise<void> {
    await Promise.all(
      routes.map(async (r) => {
        try {
          const target = await this.resolve(r.destination);
          await target?.notifier.send(message);
          this.d.metrics?.notificationDelivery(r.channelType, 'delivered');
        } catch (err) {
          this.d.metrics?.notificationDelivery(r.channelType, 'failed');
          this.d.log.warn({ destination: r.destination, err: errorMessage(err) }, 'notification could not be sent');
        }
      }),
    );
  }

  /** Starts the delivery loop in this process (the one that owns background work). */
  startDelivery(): void {
    this.deliveringHere = true;
    this.delivery.start();
  }

  async stopDelivery(): Promise<void> {
    this.deliveringHere = false;
    await this.delivery.stop();
  }

  private bot(kind: BotKind): Notifier | null {
    const creds = botCredentials(kind, this.d.settings, this.d.secrets);
    if (!creds.token || !creds.chatId) return null;
    return this.createNotifier({ apiBase: this.d.apiBase, token: creds.token, chatId: creds.chatId, channel: creds.channel });
  }

  /**
   * The enabled channels, for routing an event and for a delivery round. Alerts come in bursts
   * and a round's destinations resolve at once, so one read serves them all instead of one per
   * event or destination. A change made in this process is seen at once (the source's version
   * moves); one made in another process reaches routing and delivery within ROUND_SNAPSHOT_MS.
   * A source without a version is read every time.
   */
  private currentChannels(): Promise<DeliverableChannel[]> {
    const version = this.channels.version?.();
    if (version === undefined) return this.channels.deliverable();
    const now = Date.now();
    if (!this.snapshot || now - this.snapshot.at > ROUND_SNAPSHOT_MS || this.snapshot.version !== version || this.snapshot.source !== this.channels) {
      const channels = this.channels.deliverable();
      this.snapshot = { at: now, version, source: this.channels, channels };
      channels.catch(() => {
        if (this.snapshot?.channels === channels) this.snapshot = null;
      });
    }
    return this.snapshot.channels;
  }

  /** The notifier for a destination as configured now; null when it is gone or unconfigured. */
  private async resolve(destination: string): Promise<Destination | null> {
    if (destination === 'messenger' || destination === 'messenger_offline') {
      const notifier = this.bot(destination === 'messenger' ? 'default' : 'offline');
      return notifier ? { notifier, name: destination === 'messenger' ? 'Messenger bot' : 'Offline messenger bot' } : null;
    }
    const id = Number(destination.slice('channel:'.length));
    // Only an enabled channel still gets its queued rows (one disabled since is not sent to).
    const channel = (await this.currentChannels()).find((c) => c.id === id);
    if (!channel || !this.d.createChannelNotifier) return null;
    return { notifier: this.d.createChannelNotifier(channel), name: channel.name };
  }
}
