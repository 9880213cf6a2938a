/**
 * The scheduler's record keeping through a PostgreSQL outage (a proxy in front of the real server
 * cuts every connection and refuses new ones), at the two moments a real push cannot aim for:
 * the answer to a claim is lost after the database applied it (without the claim's token the slot
 * would be taken by nobody and silently skipped), and the run ends while the database is away
 * (without waiting for it the run would stay `running` forever).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_POSTGRES, type PostgresBehindProxy, postgresBehindProxy } from '../helpers/postgres-proxy.js';
import type { TcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../modules/push/push-helpers.js';
import { harness, type Harness } from '../modules/schedules/scheduler-helpers.js';

describe.runIf(HAS_POSTGRES)('the scheduler through a PostgreSQL outage', () => {
  let pg: PostgresBehindProxy;
  let proxy: TcpProxy;
  let h: Harness;
  let outageOnPush = false;

  beforeAll(async () => {
    pg = await postgresBehindProxy();
    proxy = pg.proxy;
    h = await harness(pg.url, async () => {
      if (outageOnPush) void proxy.outage(3_000);
    });
  });
  afterAll(async () => {
    proxy?.up();
    await h?.close();
    await pg?.close();
  });

  it('a claim whose answer was lost is settled by its token: the slot runs once, not never', async () => {
    const s = await h.addSchedule({ name: 'lost-answer', fire_at: '2026-01-01T00:00:00.000Z' });
    const claim = h.repo.claim.bind(h.repo);
    h.repo.claim = async (...args) => {
      await claim(...args);
      // Applied by the database; the connection is cut before its answer arrives.
      void proxy.outage(2_000);
      throw Object.assign(new Error('Connection terminated unexpectedly'), {});
    };
    try {
      const out = await h.scheduler().runDue(new Date('2026-01-01T00:00:05.000Z'));
      expect(out.map((o) => [o.schedule_id, o.ok])).toEqual([[s.id, true]]);
    } finally {
      h.repo.claim = claim;
    }
    expect(h.pushes.filter((p) => p === '/src/lost-answer')).toHaveLength(1);
    expect(await h.scheduler().runDue(new Date('2026-01-01T00:01:00.000Z'))).toEqual([]);
    const page = await h.runs.page(s.id, 10, 0);
    expect(page.items.map((r) => r.status)).toEqual(['completed']);
  }, 30_000);

  it('a run that ends while the database is away is recorded when it is back, not left running', async () => {
    const s = await h.addSchedule({ name: 'ends-away', fire_at: '2026-01-02T00:00:00.000Z' });
    outageOnPush = true;
    try {
      const out = await h.scheduler().runDue(new Date('2026-01-02T00:00:01.000Z'));
      expect(out.map((o) => [o.schedule_id, o.ok])).toEqual([[s.id, true]]);
    } finally {
      outageOnPush = false;
    }
    const page = await until(() => h.runs.page(s.id, 10, 0).catch(() => null), 15_000, 100);
    expect(page.items.map((r) => [r.status, r.finished_at !== null])).toEqual([['completed', true]]);
  }, 30_000);
});
