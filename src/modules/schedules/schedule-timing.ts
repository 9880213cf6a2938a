/**
 * When a schedule runs. Cron expressions (five fields) are matched with croner on Asia/Shanghai
 * wall-clock time (the operators schedule in Shanghai days); `fire_at` is an instant. A schedule owes a run for a
 * "slot" (the match or fire time); claiming that slot in the database makes each run happen once.
 */
import type { Cron } from 'croner';
import { BadRequestError } from '../../core/errors.js';
import type { ScheduleRow } from '../../db/types.js';
import { checkCron, SCHEDULE_TZ } from './cron-rules.js';

export { SCHEDULE_TZ };
/**
 * A cron match missed by more than this (service down, schedule re-enabled much later) is
 * skipped rather than run late; the schedule waits for its next match, as cron itself would.
 * A `fire_at` one-shot is always run, however late.
 */
export const MISFIRE_GRACE_MS = 10 * 60_000;

type Timing = Pick<ScheduleRow, 'enabled' | 'run_mode' | 'cron_expr' | 'fire_at' | 'last_run_at' | 'created_at'>;

/** Throws a 400 naming the problem (the rules are in cron-rules.ts, shared with the console). */
export function parseCron(expr: string): Cron {
  const c = checkCron(expr);
  if (!c.ok) throw new BadRequestError(`Invalid cron_expr: ${c.message}`, 'cron_invalid');
  return c.cron;
}

function cronOf(expr: string | null): Cron | null {
  if (!expr) return null;
  try {
    return parseCron(expr);
  } catch {
    return null; // stored before validation tightened: never fires, never crashes the loop
  }
}

const usesFireAt = (s: Timing) => s.run_mode !== 'cron' && s.fire_at !== null;
const later = (a: string | null, b: string) => (a !== null && a > b ? a : b);

/**
 * The slot a schedule owes a run for at `now`, or null when nothing is due. `watchedSince` (the
 * scheduler loop's previous pass) marks the slots the loop saw pass: one after it is owed however
 * late it is now (the wall clock jumped forward over it, or the database was away), so only a
 * slot that passed while nothing was watching is skipped after the grace.
 */
export function dueSlot(s: Timing, now: Date, watchedSince: Date | null = null): Date | null {
  if (!s.enabled) return null;
  if (usesFireAt(s)) {
    const at = new Date(s.fire_at!);
    return at <= now && (s.last_run_at === null || s.last_run_at < s.fire_at!) ? at : null;
  }
  const cron = cronOf(s.cron_expr);
  if (!cron) return null;
  const first = cron.nextRun(new Date(later(s.last_run_at, s.created_at)));
  if (!first || first > now) return null;
  // Several matches may have passed (downtime): run once, for the latest of them. croner's
  // previousRuns is strictly before its argument; a match at exactly `now` counts too.
  const latest = cron.previousRuns(1, new Date(now.getTime() + 1))[0] ?? first;
  const slot = latest > first ? latest : first;
  if (watchedSince !== null && slot > watchedSince) return slot;
  return now.getTime() - slot.getTime() <= MISFIRE_GRACE_MS ? slot : null;
}

/** The computed `next_run`: the owed slot, else the next one; null when disabled or done. */
export function nextRunOf(s: Timing, now: Date): string | null {
  if (!s.enabled) return null;
  const due = dueSlot(s, now);
  if (due) return due.toISOString();
  if (usesFireAt(s)) return s.last_run_at === null || s.last_run_at < s.fire_at! ? s.fire_at : null;
  const cron = cronOf(s.cron_expr);
  if (!cron) return null;
  const from = new Date(later(s.last_run_at, later(s.created_at, now.toISOString())));
  return cron.nextRun(from)?.toISOString() ?? null;
}
