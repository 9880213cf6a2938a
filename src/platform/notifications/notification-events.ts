/**
 * What callers hand the notification platform: a structured event, never ready-made markup. The
 * one message format module (`message-format.ts`) renders it in the operator's language; routing
 * decides from its kind and server tags which destinations get it.
 */
import type { NotificationSeverity } from '../../adapters/notifiers/notifier.js';
import type { ChannelEvent } from './channel-contract.js';

export interface EventServer {
  id: number;
  name: string;
  /** The server's tags; left out, the platform looks them up when a channel filters by tag. */
  tags?: string[];
}

/** One server's line in a script-completion report. */
export interface ScriptResultLine {
  server_id: number;
  server_name: string | null;
  exit_code: number | null;
  error: string | null;
  stdout: string;
  stderr: string;
  duration_ms: number;
}

export type MetricAlertKind = 'alert_cpu' | 'alert_mem' | 'alert_disk';
export type MetricRecoveryKind = 'recovery_cpu' | 'recovery_mem' | 'recovery_disk';

export type NotificationEvent =
  | { kind: MetricAlertKind; server: EventServer; value: number | null; threshold?: number }
  | { kind: MetricRecoveryKind; server: EventServer; value: number | null }
  | { kind: 'offline'; server: EventServer; timeoutS?: number }
  | { kind: 'online'; server: EventServer }
  /** `driftS`: agent minus service, seconds; a recovery carries the last drift seen as `driftS`. */
  | { kind: 'time_drift'; server: EventServer; driftS: number; recovered: boolean }
  | { kind: 'infrastructure'; component: 'db' | 'cache'; up: boolean; systemName: string }
  /** A channel whose deliveries keep failing (up false), or that delivers again (up true). */
  | { kind: 'infrastructure'; component: 'channel'; up: boolean; channelName: string; error?: string }
  | { kind: 'restart'; systemName: string; version: string }
  | { kind: 'script_complete'; label: string; results: ScriptResultLine[] }
  | { kind: 'push_failed'; batchId: string; failed: number; total: number; servers: string[] };

/** The channels page's "send test": rendered like an event, never queued or routed. */
export type TestEvent = { kind: 'test'; channelName: string; systemName: string };
/** What the message format renders: every routable event and the test message. */
export type RenderedEvent = NotificationEvent | TestEvent;

/** The kinds the settings-configured messenger bot has always received (also the metrics label). */
export const LEGACY_KINDS = [
  'alert_cpu',
  'alert_mem',
  'alert_disk',
  'alert_offline',
  'recovery',
  'time_drift',
  'system_cache',
  'system_db',
  'restart',
  'script_complete',
] as const;
export type LegacyKind = (typeof LEGACY_KINDS)[number];

/**
 * The legacy kind an event had before channels existed, or null for events the messenger bot
 * never received (push_failed, channel notices). Recoveries of every alert type were one kind.
 */
export function legacyKind(e: NotificationEvent): LegacyKind | null {
  switch (e.kind) {
    case 'alert_cpu':
    case 'alert_mem':
    case 'alert_disk':
    case 'restart':
    case 'script_complete':
      return e.kind;
    case 'offline':
      return 'alert_offline';
    case 'online':
    case 'recovery_cpu':
    case 'recovery_mem':
    case 'recovery_disk':
      return 'recovery';
    case 'time_drift':
      return e.recovered ? 'recovery' : 'time_drift';
    case 'infrastructure':
      return e.component === 'db' ? 'system_db' : e.component === 'cache' ? 'system_cache' : null;
    case 'push_failed':
      return null;
  }
}

/**
 * The global switch that must be on (or unset) for the event to go anywhere: each legacy kind
 * keeps its `notify_<kind>` setting (so every recovery is behind notify_recovery), push_failed is
 * behind notify_push_failed, and a channel-failing notice is never switched off (it reports the
 * notification system itself).
 */
export function gateOf(e: NotificationEvent): string | null {
  if (e.kind === 'push_failed') return 'notify_push_failed';
  const legacy = legacyKind(e);
  return legacy ? `notify_${legacy}` : null;
}

export function serverOf(e: NotificationEvent): EventServer | null {
  return 'server' in e ? e.server : null;
}

export function severityOf(e: RenderedEvent): NotificationSeverity {
  switch (e.kind) {
    case 'alert_cpu':
    case 'alert_mem':
    case 'alert_disk':
    case 'offline':
    case 'push_failed':
      return 'critical';
    case 'time_drift':
      return e.recovered ? 'info' : 'warning';
    case 'infrastructure':
      return e.up ? 'info' : 'critical';
    case 'script_complete':
      return e.results.every((r) => r.exit_code === 0 && !r.error) ? 'info' : 'warning';
    default:
      return 'info';
  }
}

/** The channel event a subscription names (the kinds are the same words). */
export function channelEventOf(e: NotificationEvent): ChannelEvent {
  return e.kind;
}
