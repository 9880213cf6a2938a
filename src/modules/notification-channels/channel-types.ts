/** `GET /types`: each type's config schema with its secret and URL fields, for the console's forms. */
import { CHANNEL_CONFIGS, SECRET_FIELDS, URL_FIELDS } from '../../adapters/notifiers/channel-configs.js';
import { CHANNEL_EVENTS, CHANNEL_TYPES } from '../../platform/notifications/channel-contract.js';
import type { ChannelTypesResponse } from './notification-channels.schemas.js';

export function channelTypes(): ChannelTypesResponse {
  return {
    types: CHANNEL_TYPES.map((type) => ({
      type,
      // A plain JSON copy: TypeBox marks its schemas with symbol keys the serializer need not see.
      schema: JSON.parse(JSON.stringify(CHANNEL_CONFIGS[type])),
      secret_fields: [...SECRET_FIELDS[type]],
      url_fields: [...URL_FIELDS[type]],
    })),
    events: [...CHANNEL_EVENTS],
  };
}
