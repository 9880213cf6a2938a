/**
 * The service's enum values in the operator's language: a sync mode or an alert type is never
 * shown as the API's English word. A value this console does not know yet (a newer service) is
 * shown as sent rather than hidden.
 */
import type { Translate } from './error-text';

const SYNC_MODES = ['incremental', 'full', 'checksum'] as const;
const ALERT_TYPES = ['cpu', 'mem', 'disk', 'offline', 'time_drift'] as const;

export function syncModeLabel(mode: string | null | undefined, t: Translate): string {
  if (mode == null) return '…';
  return (SYNC_MODES as readonly string[]).includes(mode) ? t(`history.modes.${mode}`) : mode;
}

export function alertTypeLabel(type: string, t: Translate): string {
  return (ALERT_TYPES as readonly string[]).includes(type) ? t(`enums.alertType.${type}`) : type;
}
