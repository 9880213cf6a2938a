/** Notification channels (`/api/notification-channels`): the table, its API and the `ChannelSource` delivery reads. */
import type { Kysely } from 'kysely';
import type { Actor } from '../../core/actor.js';
import type { Cipher } from '../../core/crypto.js';
import type { AdminRow, Database } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { SendTest } from './channel-test.js';
import { NotificationChannelsRepository } from './notification-channels.repository.js';
import { notificationChannelsRoutes } from './notification-channels.routes.js';
import { NotificationChannelsService } from './notification-channels.service.js';

export type { NotificationChannelsService, SendTest };

export interface NotificationChannelsModuleDeps {
  db: Kysely<Database>;
  cipher: Cipher;
  audit: AuditService;
  settings: RuntimeSettings;
  /** Sends the test message through one channel now (the notification platform's `sendTest`). */
  sendTest: SendTest;
  requireCurrentPassword(actor: Actor, admin: AdminRow, password: string, endpoint: string): Promise<void>;
}

export function createNotificationChannelsModule(d: NotificationChannelsModuleDeps) {
  const repo = new NotificationChannelsRepository(d.db);
  const key = 'notify_allow_private_targets';
  const channels = new NotificationChannelsService({
    repo,
    cipher: d.cipher,
    audit: d.audit,
    sendTest: d.sendTest,
    requireCurrentPassword: d.requireCurrentPassword,
    // It guards access: a change made through another worker counts within a second.
    allowPrivateTargets: async () => {
      await d.settings.getFresh(key, 1000);
      return d.settings.getBool(key);
    },
  });
  const feature: Feature = { name: 'notification-channels', routes: [mount('/api/notification-channels', notificationChannelsRoutes, { channels })] };
  return { channels, feature };
}
