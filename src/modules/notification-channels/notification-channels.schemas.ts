import { Type, type Static } from 'typebox';
import { CHANNEL_EVENTS, CHANNEL_TYPES } from '../../platform/notifications/channel-contract.js';

export { IdParams } from '../../http/schemas.js';
export { RevealBody } from '../presets/presets.schemas.js';

/** What every answer shows in place of a stored secret; sent back on update it keeps the secret. */
export const MASK = '********';

const ChannelTypeSchema = Type.Enum(CHANNEL_TYPES);
// Events are checked by the service (a clear 400 naming the event), so any short string passes here.
const Events = Type.Array(Type.String({ maxLength: 64 }), { maxItems: CHANNEL_EVENTS.length * 2 });
// Longer than a tag may be (64), so an overlong tag is the service's 400 `tag_invalid`, not a 422.
const Tags = Type.Array(Type.String({ maxLength: 256 }), { maxItems: 50 });
/** Checked per type by the service against the type's schema (a 400 naming the field). */
const Config = Type.Record(Type.String({ maxLength: 128 }), Type.Unknown());

export const ChannelView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: ChannelTypeSchema,
  enabled: Type.Boolean(),
  /** The whole configuration, each set secret field replaced by MASK. */
  config: Type.Record(Type.String(), Type.Unknown()),
  /** Which secret fields hold a value. */
  secrets_set: Type.Array(Type.String()),
  events: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const CreateChannelBody = Type.Object({
  type: Type.String({ maxLength: 32 }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  enabled: Type.Optional(Type.Boolean()),
  config: Config,
  events: Events,
  tags: Type.Optional(Type.Union([Tags, Type.Null()])),
});

export const UpdateChannelBody = Type.Object({
  /** Only the channel's own type is accepted: the type cannot change after create. */
  type: Type.Optional(Type.String({ maxLength: 32 })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  enabled: Type.Optional(Type.Boolean()),
  /** Fields given replace stored ones; a secret omitted or sent as MASK is kept; `null` clears an optional field. */
  config: Type.Optional(Config),
  events: Type.Optional(Events),
  tags: Type.Optional(Type.Union([Tags, Type.Null()])),
});

export const RevealedChannel = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** The secret fields in clear (only those set). */
  secrets: Type.Record(Type.String(), Type.Unknown()),
});

export const ChannelTypeInfo = Type.Object({
  type: ChannelTypeSchema,
  /** The config JSON schema; the console builds its form from it. */
  schema: Type.Unknown(),
  secret_fields: Type.Array(Type.String()),
  url_fields: Type.Array(Type.String()),
});

export const ChannelTypesResponse = Type.Object({
  types: Type.Array(ChannelTypeInfo),
  events: Type.Array(Type.String()),
});

export const TestResult = Type.Object({ ok: Type.Literal(true), ms: Type.Integer() });

export type ChannelView = Static<typeof ChannelView>;
export type CreateChannelBody = Static<typeof CreateChannelBody>;
export type UpdateChannelBody = Static<typeof UpdateChannelBody>;
export type RevealedChannel = Static<typeof RevealedChannel>;
export type ChannelTypesResponse = Static<typeof ChannelTypesResponse>;
