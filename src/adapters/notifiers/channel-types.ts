/**
 * The channel registry: for each channel type, how to build its `Notifier` from a stored
 * configuration (validated against `CHANNEL_CONFIGS` by the channels module before it is saved).
 * Delivery and the channels module's test button call `createNotifier` and nothing else.
 */
import type { HostResolver } from '../../core/network.js';
import { loadTypeboxValue } from '../../core/typebox-value.js';
import { GUARDED_TIMEOUT_MS, createGuardedRequest } from '../http/guarded-request.js';
import type { PinnedAgents } from '../http/pinned-agents.js';
import { createBarkNotifier } from './bark.js';
import { CHANNEL_CONFIGS, type ChannelConfig, type ChannelType } from './channel-configs.js';
import type { NotifierDeps } from './channel-http.js';
import { createDingtalkNotifier } from './dingtalk.js';
import { createDiscordNotifier } from './discord.js';
import { createEmailNotifier } from './email.js';
import { createFeishuNotifier } from './feishu.js';
import { createGotifyNotifier } from './gotify.js';
import { createMessengerChannelNotifier } from './messenger-channel.js';
import { NotifierError, type Notifier } from './notifier.js';
import { createNtfyNotifier } from './ntfy.js';
import { createPushplusNotifier } from './pushplus.js';
import { createServerchanNotifier } from './serverchan.js';
import { createSlackNotifier } from './slack.js';
import { createWebhookNotifier } from './webhook.js';
import { createWecomNotifier } from './wecom.js';

export type { NotifierDeps } from './channel-http.js';

/**
 * The dependencies for every channel, with the guarded request bound to the same resolver and
 * private-target setting the SMTP relay check uses. Build them per delivery round (or whenever
 * `notify_allow_private_targets` may have changed): the setting is read once here.
 */
export function createNotifierDeps(o: {
  resolve: HostResolver;
  allowPrivate: boolean;
  timeoutMs?: number;
  now?: () => number;
  smtpTls?: NotifierDeps['smtpTls'];
  agents?: PinnedAgents;
}): NotifierDeps {
  const timeoutMs = o.timeoutMs ?? GUARDED_TIMEOUT_MS;
  return {
    request: createGuardedRequest({ resolve: o.resolve, allowPrivate: o.allowPrivate, timeoutMs, agents: o.agents }),
    resolve: o.resolve,
    allowPrivate: o.allowPrivate,
    timeoutMs,
    ...(o.now ? { now: o.now } : {}),
    ...(o.smtpTls ? { smtpTls: o.smtpTls } : {}),
  };
}

type Factory<T extends ChannelType> = (channel: string, config: ChannelConfig<T>, deps: NotifierDeps) => Notifier;

const FACTORIES: { [T in ChannelType]: Factory<T> } = {
  dingtalk: createDingtalkNotifier,
  wecom: createWecomNotifier,
  feishu: createFeishuNotifier,
  email: createEmailNotifier,
  webhook: createWebhookNotifier,
  messenger: createMessengerChannelNotifier,
  serverchan: createServerchanNotifier,
  pushplus: createPushplusNotifier,
  bark: createBarkNotifier,
  ntfy: createNtfyNotifier,
  gotify: createGotifyNotifier,
  slack: createSlackNotifier,
  discord: createDiscordNotifier,
};

/**
 * A notifier for one channel, named `<type>:<id>` in logs and errors. A configuration that does
 * not match its type's schema (saved by an older version, edited by hand) gives a notifier whose
 * every send fails, not retryable, so delivery reports it like any other refusal.
 */
/** What building a notifier needs of a stored channel (the platform's deliverable channel has more). */
export interface NotifierTarget {
  id: number;
  type: ChannelType;
  config: Record<string, unknown>;
}

export function createNotifier(channel: NotifierTarget, deps: NotifierDeps): Notifier {
  const name = `${channel.type}:${channel.id}`;
  // The configuration is checked (and the channel's notifier built) on the first send, not here:
  // TypeBox's value module costs ~7.5 MB resident, and a process that never notifies never loads it.
  let built: Promise<Notifier> | null = null;
  return {
    channel: name,
    send: async (message) => {
      built ??= build(name, channel, deps);
      return (await built).send(message);
    },
  };
}

async function build(name: string, channel: NotifierTarget, deps: NotifierDeps): Promise<Notifier> {
  const factory = FACTORIES[channel.type] as Factory<ChannelType> | undefined;
  const schema = CHANNEL_CONFIGS[channel.type];
  const { Value } = await loadTypeboxValue();
  if (!factory || !schema || !Value.Check(schema, channel.config)) return failing(name, `invalid ${channel.type} channel configuration`);
  try {
    return factory(name, channel.config as ChannelConfig<ChannelType>, deps);
  } catch {
    return failing(name, `invalid ${channel.type} channel configuration`);
  }
}

function failing(channel: string, description: string): Notifier {
  return { channel, send: () => Promise.reject(new NotifierError(channel, description, false)) };
}
