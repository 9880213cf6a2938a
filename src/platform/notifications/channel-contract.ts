/**
 * What the notification platform and the channels module agree on: the channel types, the event
 * kinds a channel can subscribe to, and the shape of a channel ready to deliver. The channels
 * module (`src/modules/notification-channels/`) owns the table and hands out deliverable
 * channels; the platform (outbox, routing, delivery) only reads them through `ChannelSource`.
 */

import type { ChannelType } from '../../adapters/notifiers/channel-configs.js';

export { CHANNEL_TYPES, type ChannelType } from '../../adapters/notifiers/channel-configs.js';

/**
 * The events a channel subscribes to. The global `notify_*` switches still gate each one first:
 * alert_cpu/mem/disk → notify_alert_cpu/mem/disk, recovery_* and online → notify_recovery,
 * offline → notify_alert_offline, time_drift → notify_time_drift, infrastructure →
 * notify_system_cache / notify_system_db, restart → notify_restart, script_complete →
 * notify_script_complete, push_failed → notify_push_failed. A "channel failing" notice goes to
 * the other channels subscribed to `infrastructure`.
 */
export const CHANNEL_EVENTS = [
  'alert_cpu',
  'alert_mem',
  'alert_disk',
  'recovery_cpu',
  'recovery_mem',
  'recovery_disk',
  'offline',
  'online',
  'time_drift',
  'infrastructure',
  'restart',
  'script_complete',
  'push_failed',
] as const;
export type ChannelEvent = (typeof CHANNEL_EVENTS)[number];

/** An enabled channel with its configuration decrypted, as delivery needs it. */
export interface DeliverableChannel {
  id: number;
  name: string;
  type: ChannelType;
  /** The type's whole configuration, secrets included (decrypted); shape per `channel-types.ts`. */
  config: Record<string, unknown>;
  events: ChannelEvent[];
  /** Empty: every server. Otherwise only events about a server carrying one of these tags. */
  tags: string[];
}

/** Where delivery finds the channels; implemented by the channels module. */
export interface ChannelSource {
  /** Enabled channels only. */
  deliverable(): Promise<DeliverableChannel[]>;
  /** One channel by id, enabled or not (the test button); null when it does not exist. */
  byId(id: number): Promise<DeliverableChannel | null>;
  /**
   * A number that changes whenever this process changes a channel. A source that has it may be
   * read from a snapshot a fraction of a second old (changes made here are seen at once); one
   * without it is read afresh every time.
   */
  version?(): number;
}
