/**
 * When a schedule owes a run: a cron match in Asia/Shanghai time, run once for the latest match
 * after downtime, and only within 10 minutes of it (a run missed by more is skipped, not
 * fired late); a `once` schedule at or after its fire time, once.
 */
import { describe, expect, it } from 'vitest';
import { dueSlot, MISFIRE_GRACE_MS } from '../../../src/modules/schedules/schedule-timing.js';

const base = { enabled: 1, run_mode: 'cron' as 'cron' | 'once', cron_expr: '0 3 * * *', fire_at: null, last_run_at: null, created_at: '2026-11-01T00:00:00.000Z' };
// 03:00 in Shanghai is 19:00 UTC the day before.
const slot = '2026-11-23T19:00:00.000Z';
const at = (iso: string) => new Date(iso);

describe('dueSlot', () => {
  it('the grace is ten minutes', () => {
    expect(MISFIRE_GRACE_MS).toBe(600_000);
  });

  it.each([
    ['just before the match', base, '2026-11-23T18:59:59.000Z', null],
    ['at the match', base, slot, slot],
    ['5 minutes late', base, '2026-11-23T19:05:00.000Z', slot],
    ['exactly 10 minutes late', base, '2026-11-23T19:10:00.000Z', slot],
    ['10 minutes and 1 second late: skipped', base, '2026-11-23T19:10:01.000Z', null],
    ['already run for this slot', { ...base, last_run_at: slot }, '2026-11-23T19:01:00.000Z', null],
    ['after days of downtime, only the latest match counts', { ...base, last_run_at: '2026-11-20T19:00:00.000Z' }, '2026-11-23T19:02:00.000Z', slot],
    ['disabled', { ...base, enabled: 0 }, slot, null],
    ['an unparsable stored expression never fires', { ...base, cron_expr: 'every day' }, slot, null],
    ['once: before its time', { ...base, run_mode: 'once', cron_expr: null, fire_at: slot }, '2026-11-23T18:59:00.000Z', null],
    ['once: at its time', { ...base, run_mode: 'once', cron_expr: null, fire_at: slot }, slot, slot],
    ['once: hours late still runs (it was asked for once)', { ...base, run_mode: 'once', cron_expr: null, fire_at: slot }, '2026-11-24T02:00:00.000Z', slot],
    ['once: already run', { ...base, run_mode: 'once', cron_expr: null, fire_at: slot, last_run_at: slot }, '2026-11-24T02:00:00.000Z', null],
    ['once without fire_at follows its cron', { ...base, run_mode: 'once' }, '2026-11-23T19:00:30.000Z', slot],
  ] as const)('%s', (_label, schedule, now, expected) => {
    const got = dueSlot(schedule, at(now));
    expect(got?.toISOString() ?? null).toBe(expected);
  });
});
