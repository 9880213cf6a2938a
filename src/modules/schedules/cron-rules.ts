/**
 * How a schedule's cron expression is read, in ONE place for the service and the console: five
 * fields (minute hour day-of-month month day-of-week), matched by croner on Asia/Shanghai
 * wall-clock time. The console imports this module (through the `@server` alias) to preview the
 * next runs while an operator types, so the preview is the service's own answer. Rule: no Node-only
 * imports here (it runs in the browser), and no HTTP errors (the service wraps `checkCron`).
 */
import { Cron } from 'croner';

export const SCHEDULE_TZ = 'Asia/Shanghai';
export const CRON_FIELD_COUNT = 5;

export type CronCheck =
  | { ok: true; cron: Cron }
  /** `fields`: not five fields; `syntax`: croner refused it (`message` says why, in English). */
  | { ok: false; reason: 'fields' | 'syntax'; message: string };

/** Whether `expr` is a cron expression the service accepts, and the matcher when it is. */
export function checkCron(expr: string): CronCheck {
  const trimmed = expr.trim();
  if (trimmed.split(/\s+/).length !== CRON_FIELD_COUNT) {
    return { ok: false, reason: 'fields', message: 'it must have five fields (minute hour day-of-month month day-of-week)' };
  }
  try {
    return { ok: true, cron: new Cron(trimmed, { timezone: SCHEDULE_TZ, mode: '5-part', paused: true }) };
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : 'unparsable';
    return { ok: false, reason: 'syntax', message: why };
  }
}

/**
 * The next `count` matches strictly after `from`, as ISO instants (UTC); [] for an invalid
 * expression. Each is the instant the service's `next_run` names for a schedule last run at the
 * match before it.
 */
export function nextCronRuns(expr: string, count: number, from: Date = new Date()): string[] {
  const c = checkCron(expr);
  if (!c.ok) return [];
  return c.cron.nextRuns(count, from).map((d) => d.toISOString());
}
