/** The messaging-bot channel's own endpoints (`/api/settings/messenger...`): test, reveal, chat discovery. */
import { mount, type Feature } from '../../platform/feature.js';
import { messengerRoutes } from './messenger.routes.js';
import { MessengerService, type MessengerServiceDeps } from './messenger.service.js';

export function createMessengerModule(d: MessengerServiceDeps) {
  const messenger = new MessengerService(d);
  const feature: Feature = { name: 'messenger', routes: [mount('/api/settings', messengerRoutes, { messenger })] };
  return { feature };
}
