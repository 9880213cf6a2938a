/**
 * The rules a channel's configuration must meet before it is stored: the type's schema
 * (`CHANNEL_CONFIGS`), URL fields parse as http(s) URLs, and — unless the setting
 * `notify_allow_private_targets` is on — no URL field (nor the email host) names a private,
 * loopback or otherwise non-public IP literal; a webhook sets none of the transport's headers.
 * Host names are judged at send time by the channel's guarded request, since what they resolve
 * to can change after the save.
 */
import ipaddr from 'ipaddr.js';
import { blockedRange } from '../../adapters/http/safe-fetch.js';
import { CHANNEL_CONFIGS, SECRET_FIELDS, URL_FIELDS } from '../../adapters/notifiers/channel-configs.js';
import { forbiddenWebhookHeaders } from '../../adapters/notifiers/webhook.js';
import { BadRequestError } from '../../core/errors.js';
import { loadTypeboxValue } from '../../core/typebox-value.js';
import { CHANNEL_EVENTS, CHANNEL_TYPES, type ChannelEvent, type ChannelType } from '../../platform/notifications/channel-contract.js';
import { normalizeTags, tagName } from '../servers/index.js';
import { MASK } from './notification-channels.schemas.js';

export type Config = Record<string, unknown>;

export function channelType(value: string): ChannelType {
  if (!(CHANNEL_TYPES as readonly string[]).includes(value)) {
    throw new BadRequestError(`Unknown channel type "${value}": expected one of ${CHANNEL_TYPES.join(', ')}`, 'channel_type_invalid');
  }
  return value as ChannelType;
}

/**
 * The configuration after applying `patch` to `stored`: a field given replaces the stored one,
 * `null` removes it, and a secret field sent as MASK keeps the stored secret (what the console
 * sends back unchanged). On create `stored` is empty, so a MASK there is simply absent.
 */
export function mergeConfig(type: ChannelType, stored: Config, patch: Config): Config {
  const out: Config = { ...stored };
  const secrets = SECRET_FIELDS[type];
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (value === MASK && secrets.includes(key)) {
      if (!(key in stored)) delete out[key];
    } else out[key] = value;
  }
  return out;
}

/** Throws a 400 naming the first field that breaks the type's schema or the URL rules. */
export async function checkConfig(type: ChannelType, config: Config, allowPrivate: boolean): Promise<void> {
  const schema = CHANNEL_CONFIGS[type];
  const { Value } = await loadTypeboxValue();
  const first = [...Value.Errors(schema, config)][0];
  if (first) throw new BadRequestError(`Invalid ${type} config: ${describe(first)}`, 'channel_config_invalid');
  for (const field of URL_FIELDS[type]) {
    const value = config[field];
    if (typeof value !== 'string') continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new BadRequestError(`Invalid ${type} config: ${field} is not a valid URL`, 'channel_config_invalid');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new BadRequestError(`Invalid ${type} config: ${field} must be an http(s) URL`, 'channel_config_invalid');
    }
    if (!allowPrivate) refusePrivate(field, url.hostname);
  }
  if (type === 'email' && !allowPrivate) refusePrivate('host', String(config.host));
  // Refused when saved, not only when sent: Host, Content-Length and hop-by-hop headers are the
  // transport's (a webhook that sets them would fail every message).
  if (type === 'webhook') {
    const forbidden = forbiddenWebhookHeaders(config.headers as Record<string, string> | undefined);
    if (forbidden.length) throw new BadRequestError(`Invalid webhook config: headers may not set ${forbidden.join(', ')}`, 'channel_config_invalid');
  }
}

function refusePrivate(field: string, host: string): void {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!ipaddr.isValid(bare)) return;
  const range = blockedRange(bare);
  if (range) {
    throw new BadRequestError(
      `${field} points at a ${range} address; turn on the setting notify_allow_private_targets to allow private targets`,
      'channel_private_target',
    );
  }
}

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** "field: what is wrong", with the field named even for a missing or unexpected property. */
function describe(e: SchemaError): string {
  const at = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (e.keyword === 'required') return `${(e.params.requiredProperties as string[]).join(', ')} is required`;
  if (e.keyword === 'additionalProperties') return `unknown field ${(e.params.additionalProperties as string[]).join(', ')}`;
  if (e.keyword === 'boolean' && at) return `unknown field ${at}`;
  return `${at || 'config'} ${e.message}`;
}

/** Known events only, each once, in the order given. */
export function channelEvents(events: readonly string[]): ChannelEvent[] {
  for (const e of events) {
    if (!(CHANNEL_EVENTS as readonly string[]).includes(e)) {
      throw new BadRequestError(`Unknown event "${e}": expected some of ${CHANNEL_EVENTS.join(', ')}`, 'channel_event_invalid');
    }
  }
  return [...new Set(events)] as ChannelEvent[];
}

/** Server tags as servers store them (trimmed, blanks and repeats dropped); an empty list means every server. */
export function channelTags(tags: readonly string[] | null | undefined): string[] {
  return normalizeTags(tags ? [...tags] : []).map((t) => tagName(t, 'tag'));
}

/** Splits a configuration into its non-secret part and its secret fields. */
export function splitSecrets(type: ChannelType, config: Config): { plain: Config; secrets: Config } {
  const plain: Config = {};
  const secrets: Config = {};
  for (const [k, v] of Object.entries(config)) (SECRET_FIELDS[type].includes(k) ? secrets : plain)[k] = v;
  return { plain, secrets };
}
