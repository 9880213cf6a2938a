/**
 * The configuration each channel type accepts, as TypeBox schemas: the channels API validates
 * against them, the console builds its forms from them, and each channel file reads its config as
 * `Static<>` of its schema. `SECRET_FIELDS` are encrypted at rest, masked in every answer and
 * revealed only with the password; `URL_FIELDS` must be http(s) and pass the private-target rule.
 * Base URLs are configurable wherever a provider can be self-hosted (and so tests can point a
 * channel at a loopback fake); each default is the provider's public endpoint.
 */
import { Type, type Static, type TSchema } from 'typebox';

/** Every channel type, in the order the console offers them (most used by our operators first). */
export const CHANNEL_TYPES = [
  'dingtalk',
  'wecom',
  'feishu',
  'email',
  'webhook',
  'messenger',
  'serverchan',
  'pushplus',
  'bark',
  'ntfy',
  'gotify',
  'slack',
  'discord',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

const Url = Type.String({ minLength: 8, maxLength: 2048, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' });
const Token = (max = 512) => Type.String({ minLength: 1, maxLength: max });
const Opt = <T extends TSchema>(s: T) => Type.Optional(s);
const strict = { additionalProperties: false } as const;

export const DingtalkConfig = Type.Object(
  { webhook_url: Url, secret: Opt(Token(256)), at_mobiles: Opt(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 20 })) },
  strict,
);
export const WecomConfig = Type.Object({ webhook_url: Url, mentioned_mobile_list: Opt(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 20 })) }, strict);
export const FeishuConfig = Type.Object({ webhook_url: Url, secret: Opt(Token(256)) }, strict);
export const EmailConfig = Type.Object(
  {
    host: Type.String({ minLength: 1, maxLength: 253 }),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    /** `tls`: TLS from the first byte (465); `starttls`: upgrade required; `none`: plain (internal relays). */
    security: Type.Union([Type.Literal('tls'), Type.Literal('starttls'), Type.Literal('none')]),
    username: Opt(Type.String({ maxLength: 320 })),
    password: Opt(Token(1024)),
    from: Type.String({ minLength: 3, maxLength: 320 }),
    to: Type.Array(Type.String({ minLength: 3, maxLength: 320 }), { minItems: 1, maxItems: 50 }),
  },
  strict,
);
export const WebhookConfig = Type.Object(
  {
    url: Url,
    method: Type.Union([Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('PATCH'), Type.Literal('GET')]),
    body_format: Type.Union([Type.Literal('json'), Type.Literal('form')]),
    /** Placeholders {{title}} {{text}} {{markdown}} {{kind}} {{severity}}; empty: a default JSON body. */
    body_template: Opt(Type.String({ maxLength: 8192 })),
    headers: Opt(Type.Record(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9!#$%&\'*+.^_`|~-]+$' }), Type.String({ maxLength: 2048 }))),
    /** When set, `X-Signature: sha256=<hex HMAC-SHA256 of the body>` is sent. */
    secret: Opt(Token(256)),
  },
  strict,
);
export const MessengerConfig = Type.Object({ api_base: Opt(Url), bot_token: Token(256), chat_id: Type.String({ minLength: 1, maxLength: 64 }) }, strict);
export const ServerchanConfig = Type.Object({ send_key: Token(256), api_base: Opt(Url) }, strict);
export const PushplusConfig = Type.Object({ token: Token(256), topic: Opt(Type.String({ maxLength: 64 })), api_base: Opt(Url) }, strict);
export const BarkConfig = Type.Object({ server_url: Opt(Url), device_key: Token(256), group: Opt(Type.String({ maxLength: 64 })) }, strict);
export const NtfyConfig = Type.Object(
  {
    server_url: Opt(Url),
    topic: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
    access_token: Opt(Token(256)),
    username: Opt(Type.String({ maxLength: 128 })),
    password: Opt(Token(256)),
  },
  strict,
);
export const GotifyConfig = Type.Object({ server_url: Url, app_token: Token(256) }, strict);
export const SlackConfig = Type.Object({ webhook_url: Url }, strict);
export const DiscordConfig = Type.Object({ webhook_url: Url, username: Opt(Type.String({ maxLength: 80 })) }, strict);

export const CHANNEL_CONFIGS = {
  dingtalk: DingtalkConfig,
  wecom: WecomConfig,
  feishu: FeishuConfig,
  email: EmailConfig,
  webhook: WebhookConfig,
  messenger: MessengerConfig,
  serverchan: ServerchanConfig,
  pushplus: PushplusConfig,
  bark: BarkConfig,
  ntfy: NtfyConfig,
  gotify: GotifyConfig,
  slack: SlackConfig,
  discord: DiscordConfig,
} as const satisfies Record<ChannelType, TSchema>;

export type ChannelConfig<T extends ChannelType> = Static<(typeof CHANNEL_CONFIGS)[T]>;

/**
 * Fields holding credentials. A webhook URL whose path or query carries the key (DingTalk,
 * WeCom, Feishu, Slack, Discord) is a secret as a whole: whoever has it can post.
 */
export const SECRET_FIELDS: Record<ChannelType, readonly string[]> = {
  dingtalk: ['webhook_url', 'secret'],
  wecom: ['webhook_url'],
  feishu: ['webhook_url', 'secret'],
  email: ['password'],
  webhook: ['secret'],
  messenger: ['bot_token'],
  serverchan: ['send_key'],
  pushplus: ['token'],
  bark: ['device_key'],
  ntfy: ['access_token', 'password'],
  gotify: ['app_token'],
  slack: ['webhook_url'],
  discord: ['webhook_url'],
};

/** Fields that name a target the service will connect to: http(s) only, private targets refused unless allowed. */
export const URL_FIELDS: Record<ChannelType, readonly string[]> = {
  dingtalk: ['webhook_url'],
  wecom: ['webhook_url'],
  feishu: ['webhook_url'],
  email: [],
  webhook: ['url'],
  messenger: ['api_base'],
  serverchan: ['api_base'],
  pushplus: ['api_base'],
  bark: ['server_url'],
  ntfy: ['server_url'],
  gotify: ['server_url'],
  slack: ['webhook_url'],
  discord: ['webhook_url'],
};
