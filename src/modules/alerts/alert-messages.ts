/** Alert types, their legacy notification kinds and the notification events they raise. */
import type { EventServer, MetricAlertKind, NotificationEvent } from '../../platform/notifications/notification-events.js';
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

export interface AlertContext {
  value: number | null;
  /** Percent threshold for metric alerts, seconds of heartbeat timeout for offline. */
  limit?: number;
  /** Signed drift (agent minus service), seconds. */
  drift?: number;
}

/** The notification event of an alert that opened (its wording is the notification platform's). */
export function alertEvent(type: AlertType, server: EventServer, c: AlertContext): NotificationEvent {
  switch (type) {
    case 'offline':
      return { kind: 'offline', server, timeoutS: c.limit };
    case 'time_drift':
      return { kind: 'time_drift', server, driftS: c.drift ?? c.value ?? 0, recovered: false };
    default:
      return { kind: ALERT_KIND[type] as MetricAlertKind, server, value: c.value, threshold: c.limit };
  }
}

/** The notification event of an alert that closed (`value` the reading that recovered). */
export function recoveryEvent(type: AlertType, server: EventServer, value: number | null): NotificationEvent {
  switch (type) {
    case 'offline':
      return { kind: 'online', server };
    case 'time_drift':
      return { kind: 'time_drift', server, driftS: value ?? 0, recovered: true };
    default:
      return { kind: `recovery_${type}`, server, value };
  }
}
