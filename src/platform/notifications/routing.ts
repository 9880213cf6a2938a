/**
 * Where one event goes: every channel subscribed to its event whose tags (if it has any) share
 * one with the event's server (an event without a server goes to every subscribed channel), plus
 * the settings-configured messenger bot for exactly the kinds it has always received, offline
 * alerts and back-online notices preferring the dedicated offline bot when that is configured.
 * The global notify_* switch is checked before this (see NotificationService).
 */
import type { DeliverableChannel } from './channel-contract.js';
import { channelEventOf, legacyKind, type NotificationEvent, serverOf } from './notification-events.js';

export interface Route {
  /** `channel:<id>`, `messenger` or `messenger_offline`. */
  destination: string;
  channelType: string;
}

export interface BotsConfigured {
  default: boolean;
  offline: boolean;
}

export const channelDestination = (id: number) => `channel:${id}`;

export function routeEvent(
  e: NotificationEvent,
  channels: DeliverableChannel[],
  serverTags: string[] | null,
  bots: BotsConfigured,
  exclude: string | null = null,
): Route[] {
  const event = channelEventOf(e);
  const hasServer = serverOf(e) !== null;
  const routes: Route[] = [];
  for (const c of channels) {
    if (!c.events.includes(event)) continue;
    if (hasServer && c.tags.length > 0 && !c.tags.some((t) => serverTags?.includes(t))) continue;
    routes.push({ destination: channelDestination(c.id), channelType: c.type });
  }
  const legacy = legacyKind(e);
  if (legacy) {
    const offlineSide = legacy === 'alert_offline' || e.kind === 'online';
    if (offlineSide && bots.offline) routes.push({ destination: 'messenger_offline', channelType: 'messenger' });
    else if (bots.default) routes.push({ destination: 'messenger', channelType: 'messenger' });
  }
  return routes.filter((r) => r.destination !== exclude);
}

/** True when some channel would need the server's tags to decide. */
export function needsTags(e: NotificationEvent, channels: DeliverableChannel[]): boolean {
  return serverOf(e) !== null && channels.some((c) => c.tags.length > 0 && c.events.includes(channelEventOf(e)));
}
