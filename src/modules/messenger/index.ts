/** The messaging-bot channel's own endpoints (`/api/settings/messenger...`): test, reveal, chat discovery. */
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { SecretSettings } from '../../platform/settings/secret-settings.js';
import { messengerRoutes } from './messenger.routes.js';
import { MessengerService } from './messenger.service.js';

export function createMessengerModule(d: { settings: RuntimeSettings; secrets: SecretSettings; audit: AuditService; apiBase: string }) {
  const messenger = new MessengerService(d);
  const feature: Feature = { name: 'messenger', routes: [mount('/api/settings', messengerRoutes, { messenger })] };
  return { feature };
}
