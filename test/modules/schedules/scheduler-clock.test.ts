/**
 * The wall clock jumps by an hour around a schedule's time (an NTP step, a VM resumed, an
 * operator fixing the date). Each scheduled instant runs exactly once: a jump forward over it runs
 * it (the loop saw it pass, however late it now looks), a jump back after it does not run it again
 * (the claim stamps the schedule, a later claim of the same instant matches nothing), and a jump
 * back before it still runs it once at its time. Only the scheduler's clock is driven; the
 * database is real (SQLite, and PostgreSQL when TEST_DATABASE_URL is set).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, dbKinds, type TempDatabase } from '../../helpers/targets.js';
import { until } from '../push/push-helpers.js';
import { harness, type Harness } from './scheduler-helpers.js';

describe.each(dbKinds())('schedules when the wall clock jumps, on %s', (db) => {
  let pgdb: TempDatabase | null = null;
  let h: Harness;
  let wall = 0;
  let stop: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    pgdb = db === 'postgres' ? await createPostgresDatabase() : null;
    h = await harness(pgdb?.url ?? null);
  });
  afterEach(async () => {
    await stop?.();
    stop = null;
  });
  afterAll(async () => {
    await h?.close();
    await pgdb?.drop();
  });

  const at = (iso: string) => {
    wall = Date.parse(iso);
  };
  const start = () => {
    stop = h.scheduler({ now: () => wall }).start(10);
  };
  /** Lets the loop make a few complete passes at the current wall time. */
  const passes = async (n = 3) => {
    const target = h.passes() + n + 1;
    await until(async () => h.passes() >= target, 15_000, 5);
  };
  const runsOf = (name: string) => h.pushes.filter((p) => p === `/src/${name}`).length;
  const slots = async (id: number) => (await h.runs.page(id, 10, 0)).items.map((r) => r.slot).reverse();

  // 12:00 Asia/Shanghai is 04:00 UTC.
  it('a jump forward over a daily time runs that time once, late rather than never', async () => {
    const s = await h.addSchedule({ name: 'fwd', run_mode: 'cron', cron_expr: '0 12 * * *' });
    at('2026-03-10T03:50:00.000Z');
    start();
    await passes();
    expect(runsOf('fwd')).toBe(0);
    at('2026-03-10T04:50:00.000Z');
    await passes(6);
    expect(runsOf('fwd')).toBe(1);
    expect(await slots(s.id)).toEqual(['2026-03-10T04:00:00.000Z']);
  });

  it('a jump back after a daily time does not run it again; the next day runs as usual', async () => {
    const s = await h.addSchedule({ name: 'back', run_mode: 'cron', cron_expr: '0 12 * * *' });
    at('2026-03-10T03:59:58.000Z');
    start();
    await passes();
    at('2026-03-10T04:00:01.000Z');
    await until(async () => runsOf('back') === 1, 15_000, 5);
    at('2026-03-10T03:00:01.000Z');
    await passes();
    for (const t of ['2026-03-10T03:59:59.000Z', '2026-03-10T04:00:00.000Z', '2026-03-10T04:00:01.000Z', '2026-03-10T04:30:00.000Z']) {
      at(t);
      await passes();
    }
    expect(runsOf('back')).toBe(1);
    at('2026-03-11T04:00:02.000Z');
    await until(async () => runsOf('back') === 2, 15_000, 5);
    await passes();
    expect(await slots(s.id)).toEqual(['2026-03-10T04:00:00.000Z', '2026-03-11T04:00:00.000Z']);
  });

  it('a jump back before a daily time still runs it once, at its time', async () => {
    const s = await h.addSchedule({ name: 'early', run_mode: 'cron', cron_expr: '0 12 * * *' });
    at('2026-03-12T03:50:00.000Z');
    start();
    await passes();
    at('2026-03-12T02:50:00.000Z');
    await passes();
    at('2026-03-12T03:59:59.000Z');
    await passes();
    expect(runsOf('early')).toBe(0);
    at('2026-03-12T04:00:00.500Z');
    await until(async () => runsOf('early') === 1, 15_000, 5);
    at('2026-03-12T05:00:00.000Z');
    await passes();
    expect(runsOf('early')).toBe(1);
    expect(await slots(s.id)).toEqual(['2026-03-12T04:00:00.000Z']);
  });

  it('a one-shot jumped over runs once; jumping back over it again does not repeat it', async () => {
    const s = await h.addSchedule({ name: 'once', fire_at: '2026-03-20T04:00:00.000Z' });
    at('2026-03-20T03:30:00.000Z');
    start();
    await passes();
    at('2026-03-20T04:30:00.000Z');
    await until(async () => runsOf('once') === 1, 15_000, 5);
    at('2026-03-20T03:30:00.000Z');
    await passes();
    at('2026-03-20T04:30:00.000Z');
    await passes();
    expect(runsOf('once')).toBe(1);
    expect(await slots(s.id)).toEqual(['2026-03-20T04:00:00.000Z']);
  });

  it('a daily time that passed while no loop was watching (service down) is still skipped after the grace', async () => {
    await h.addSchedule({ name: 'down', run_mode: 'cron', cron_expr: '0 12 * * *', created_at: '2026-03-25T00:00:00.000Z' });
    at('2026-03-25T04:30:00.000Z');
    start();
    await passes(6);
    expect(runsOf('down')).toBe(0);
  });
});
