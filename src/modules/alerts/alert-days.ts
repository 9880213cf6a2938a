/**
 * Asia/Shanghai day arithmetic for the daily alert counters: which whole days a date range covers
 * (answered from the counters) and which partial edges must be counted from the log itself.
 */
import { shanghaiDay, shanghaiDayStart } from '../../core/time.js';

const DAY_MS = 86_400_000;

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

export function dayStartIso(day: string): string {
  return shanghaiDayStart(day).toISOString();
}

export function dayEndIso(day: string): string {
  return new Date(shanghaiDayStart(day).getTime() + DAY_MS - 1).toISOString();
}

export interface Range {
  from?: string;
  to?: string;
}

export interface CountPlan {
  /** Whole days (inclusive, open-ended when absent) to read from the counters; null for none. */
  days: Range | null;
  /** Instant ranges (inclusive ISO bounds) to count from the log. */
  edges: Range[];
}

/** `from`/`to` are inclusive UTC ISO bounds as `parseDateBound` returns them. */
export function planCount(from?: string, to?: string): CountPlan {
  let firstDay: string | undefined;
  let lastDay: string | undefined;
  if (from !== undefined) {
    const d = shanghaiDay(from);
    firstDay = from === dayStartIso(d) ? d : addDays(d, 1);
  }
  if (to !== undefined) {
    const d = shanghaiDay(to);
    lastDay = to === dayEndIso(d) ? d : addDays(d, -1);
  }
  // Less than one whole day inside the range: it is small, count it directly.
  if (firstDay !== undefined && lastDay !== undefined && firstDay > lastDay) return { days: null, edges: [{ from, to }] };
  const edges: Range[] = [];
  if (from !== undefined && firstDay !== shanghaiDay(from)) edges.push({ from, to: dayEndIso(shanghaiDay(from)) });
  if (to !== undefined && lastDay !== shanghaiDay(to)) edges.push({ from: dayStartIso(shanghaiDay(to)), to });
  return { days: { from: firstDay, to: lastDay }, edges };
}
