/** Alert types, their notification kinds and the HTML the bot receives (server names escaped). */
import type { NotificationKind } from '../../platform/notifications/notification.service.js';

export const METRIC_TYPES = ['cpu', 'mem', 'disk'] as const;
export const ALERT_TYPES = ['cpu', 'mem', 'disk', 'offline', 'time_drift'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** Agent clocks may differ from ours by this much before `time_drift` opens. */
export const MAX_DRIFT_S = 60;

export const ALERT_KIND: Record<AlertType, NotificationKind> = {
  cpu: 'alert_cpu',
  mem: 'alert_mem',
  disk: 'alert_disk',
  offline: 'alert_offline',
  time_drift: 'time_drift',
};

const LABEL: Record<AlertType, string> = {
  cpu: 'CPU',
  mem: 'Memory',
  disk: 'Disk',
  offline: 'Heartbeat',
  time_drift: 'Clock drift',
};

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const pct = (v: number | null) => (v === null ? '?' : `${Math.round(v * 10) / 10}%`);

export interface AlertContext {
  serverName: string;
  value: number | null;
  /** Percent threshold for metric alerts, seconds of heartbeat timeout for offline. */
  limit?: number;
  /** Signed drift (agent minus service), seconds. */
  drift?: number;
}

export function alertHtml(type: AlertType, c: AlertContext): string {
  const name = `<b>${escapeHtml(c.serverName)}</b>`;
  switch (type) {
    case 'offline':
      return `🔴 <b>Server offline</b>: ${name} sent no heartbeat for ${c.limit ?? '?'} s`;
    case 'time_drift': {
      const ahead = (c.drift ?? 0) >= 0 ? 'ahead of' : 'behind';
      return `⏰ <b>Clock drift</b> on ${name}: the agent clock is ${Math.round(Math.abs(c.drift ?? c.value ?? 0))} s ${ahead} the service`;
    }
    default:
      return `🔴 <b>${LABEL[type]} alert</b> on ${name}: ${pct(c.value)} (threshold ${c.limit ?? '?'}%)`;
  }
}

export function recoveryHtml(type: AlertType, c: AlertContext): string {
  const name = `<b>${escapeHtml(c.serverName)}</b>`;
  switch (type) {
    case 'offline':
      return `🟢 <b>Server back online</b>: ${name} is sending heartbeats again`;
    case 'time_drift':
      return `🟢 <b>Clock drift recovered</b> on ${name}: ${Math.round(c.value ?? 0)} s`;
    default:
      return `🟢 <b>${LABEL[type]} recovered</b> on ${name}: ${pct(c.value)}`;
  }
}
