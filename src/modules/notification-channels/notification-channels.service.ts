/**
 * Notification channels: where notices go besides the built-in bot. Secret config fields are
 * encrypted at rest (one ciphertext per channel), replaced by MASK in every answer and returned in
 * clear only by `reveal`, which re-checks the caller's own password. The service is also the
 * `ChannelSource` delivery reads: it hands out channels with their configuration decrypted.
 */
import { SECRET_FIELDS } from '../../adapters/notifiers/channel-configs.js';
import type { Actor } from '../../core/actor.js';
import type { Cipher } from '../../core/crypto.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { AdminRow, NotificationChannelRow } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { ChannelSource, ChannelType, DeliverableChannel } from '../../platform/notifications/channel-contract.js';
import { presetName } from '../presets/index.js';
import { channelEvents, channelTags, channelType, checkConfig, mergeConfig, splitSecrets, type Config } from './channel-config.js';
import { sendChannelTest, type SendTest } from './channel-test.js';
import type { ChannelPatch, NotificationChannelsRepository } from './notification-channels.repository.js';
import { MASK, type ChannelView, type CreateChannelBody, type UpdateChannelBody } from './notification-channels.schemas.js';

export interface NotificationChannelsDeps {
  repo: NotificationChannelsRepository;
  cipher: Cipher;
  audit: AuditService;
  /** The setting `notify_allow_private_targets`, read fresh (it guards access). */
  allowPrivateTargets(): Promise<boolean>;
  /** Sends one test message through the channel now; rejects as a `Notifier` does. */
  sendTest: SendTest;
  /** Throws (400 wrong, 429 locked out) unless `password` is the admin's own; counts and audits failures. */
  requireCurrentPassword(actor: Actor, admin: AdminRow, password: string, endpoint: string): Promise<void>;
  now?: () => number;
}

const NOT_FOUND = 'Notification channel not found';

export class NotificationChannelsService implements ChannelSource {
  /** The enabled channels as last decoded, with the row each came from. */
  private decoded = new Map<number, { row: NotificationChannelRow; channel: DeliverableChannel }>();
  private changes = 0;

  constructor(private readonly d: NotificationChannelsDeps) {}

  async list(): Promise<ChannelView[]> {
    return (await this.d.repo.list()).map((r) => this.view(r));
  }

  async get(id: number): Promise<ChannelView> {
    return this.view(await this.row(id));
  }

  async create(actor: Actor, input: CreateChannelBody): Promise<ChannelView> {
    const type = channelType(input.type);
    const config = mergeConfig(type, {}, input.config);
    await checkConfig(type, config, await this.d.allowPrivateTargets());
    const { plain, secrets } = splitSecrets(type, config);
    const at = nowIso();
    const name = presetName(input.name);
    const row = await this.unique(name, () =>
      this.d.repo.create({
        name,
        type,
        enabled: input.enabled === false ? 0 : 1,
        config: JSON.stringify(plain),
        secrets: this.d.cipher.encrypt(JSON.stringify(secrets)),
        events: JSON.stringify(channelEvents(input.events)),
        tags: JSON.stringify(channelTags(input.tags)),
        created_at: at,
        updated_at: at,
      }),
    );
    this.changes++;
    await this.d.audit.record(actor, 'create_notification_channel', { type: 'notification_channel', id: row.id, detail: `name=${row.name} type=${type}` });
    return this.view(row);
  }

  async update(actor: Actor, id: number, input: UpdateChannelBody): Promise<ChannelView> {
    const current = await this.row(id);
    const type = current.type as ChannelType;
    if (input.type !== undefined && input.type !== type) {
      throw new BadRequestError(`The type of a channel cannot change (it is ${type}): create a new channel instead`, 'channel_type_immutable');
    }
    const patch: ChannelPatch = {};
    const changed: string[] = [];
    if (input.name !== undefined) patch.name = presetName(input.name);
    if (input.enabled !== undefined) patch.enabled = input.enabled ? 1 : 0;
    if (input.events !== undefined) patch.events = JSON.stringify(channelEvents(input.events));
    if (input.tags !== undefined) patch.tags = JSON.stringify(channelTags(input.tags));
    changed.push(...Object.keys(patch));
    if (input.config !== undefined) {
      const config = mergeConfig(type, this.fullConfig(current), input.config);
      await checkConfig(type, config, await this.d.allowPrivateTargets());
      const { plain, secrets } = splitSecrets(type, config);
      patch.config = JSON.stringify(plain);
      patch.secrets = this.d.cipher.encrypt(JSON.stringify(secrets));
      // Field names only: the audit never carries a value, secret or not.
      changed.push(...Object.keys(input.config).map((k) => `config.${k}`));
    }
    patch.updated_at = nowIso();
    const row = await this.unique(patch.name ?? current.name, () => this.d.repo.update(id, patch));
    if (!row) throw new NotFoundError(NOT_FOUND, 'channel_not_found');
    this.changes++;
    await this.d.audit.record(actor, 'update_notification_channel', { type: 'notification_channel', id, detail: `fields=${changed.join(',')}` });
    return this.view(row);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    if (!(await this.d.repo.delete(id))) throw new NotFoundError(NOT_FOUND, 'channel_not_found');
    this.changes++;
    await this.d.audit.record(actor, 'delete_notification_channel', { type: 'notification_channel', id });
  }

  async reveal(actor: Actor, admin: AdminRow, id: number, currentPassword: string) {
    await this.d.requireCurrentPassword(actor, admin, currentPassword, 'POST /api/notification-channels/{id}/reveal');
    const row = await this.row(id);
    const secrets = this.secrets(row);
    await this.d.audit.record(actor, 'reveal_notification_channel', { type: 'notification_channel', id });
    return { id: row.id, name: row.name, secrets };
  }

  /** Sends a test message now, enabled or not; the outcome (never the config) is audited. */
  async test(actor: Actor, id: number): Promise<{ ok: true; ms: number }> {
    const channel = this.deliverable1(await this.row(id));
    const now = this.d.now ?? Date.now;
    const started = now();
    try {
      await sendChannelTest(this.d.sendTest, channel);
    } catch (err) {
      await this.d.audit.record(actor, 'test_notification_channel', { type: 'notification_channel', id, detail: 'result=failed' });
      throw err;
    }
    const ms = Math.max(0, Math.round(now() - started));
    await this.d.audit.record(actor, 'test_notification_channel', { type: 'notification_channel', id, detail: `result=ok ms=${ms}` });
    return { ok: true, ms };
  }

  /**
   * The enabled channels, read afresh each time (another process may have changed them). Each is
   * decrypted and parsed once per version of its row, not on every call: every notification and
   * every delivery round reads them, and each read would otherwise pay one decryption per channel.
   */
  async deliverable(): Promise<DeliverableChannel[]> {
    const rows = await this.d.repo.list(true);
    const decoded = new Map<number, { row: NotificationChannelRow; channel: DeliverableChannel }>();
    const out = rows.map((r) => {
      const held = this.decoded.get(r.id);
      const channel = held && sameVersion(held.row, r) ? held.channel : this.deliverable1(r);
      decoded.set(r.id, { row: r, channel });
      return channel;
    });
    // Only channels still enabled are kept: a deleted or disabled one leaves no secrets behind.
    this.decoded = decoded;
    return out;
  }

  version(): number {
    return this.changes;
  }

  async byId(id: number): Promise<DeliverableChannel | null> {
    const row = await this.d.repo.findById(id);
    return row ? this.deliverable1(row) : null;
  }

  private deliverable1(r: NotificationChannelRow): DeliverableChannel {
    return { id: r.id, name: r.name, type: r.type as ChannelType, config: this.fullConfig(r), events: JSON.parse(r.events), tags: JSON.parse(r.tags) };
  }

  private view(r: NotificationChannelRow): ChannelView {
    const config: Config = JSON.parse(r.config);
    const set = SECRET_FIELDS[r.type as ChannelType].filter((k) => k in this.secrets(r));
    for (const k of set) config[k] = MASK;
    return {
      id: r.id,
      name: r.name,
      type: r.type as ChannelType,
      enabled: r.enabled === 1,
      config,
      secrets_set: set,
      events: JSON.parse(r.events),
      tags: JSON.parse(r.tags),
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }

  /** A DecryptionError (ENCRYPTION_KEY changed) becomes a 500 with a safe message. */
  private secrets(r: NotificationChannelRow): Config {
    return JSON.parse(this.d.cipher.decrypt(r.secrets)) as Config;
  }

  private fullConfig(r: NotificationChannelRow): Config {
    return { ...(JSON.parse(r.config) as Config), ...this.secrets(r) };
  }

  private async row(id: number): Promise<NotificationChannelRow> {
    const row = await this.d.repo.findById(id);
    if (!row) throw new NotFoundError(NOT_FOUND, 'channel_not_found');
    return row;
  }

  /** A taken name is a 409 whether the check or the unique index catches it (two saves racing). */
  private async unique<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`A channel named "${name}" already exists`, 'channel_name_exists');
      throw err;
    }
  }
}

/** Whether two reads of a channel's row hold the same channel (every field delivery uses). */
function sameVersion(a: NotificationChannelRow, b: NotificationChannelRow): boolean {
  return a.name === b.name && a.type === b.type && a.config === b.config && a.secrets === b.secrets && a.events === b.events && a.tags === b.tags;
}
