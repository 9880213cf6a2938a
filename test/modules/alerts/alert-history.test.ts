/**
 * Alert history against rows written straight into the log: every filter, the
 * pagination rules, Asia/Shanghai day bounds, name fallbacks, and exact totals and stats from the
 * trigger-kept daily counters compared with a brute-force count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { createServer, history, type HistoryItem } from '../agent/agent-helpers.js';
import { offlineEnv } from '../../platform/settings/fake-http.js';

const NOW = Date.parse('2026-03-10T04:00:00.000Z'); // 12:00 in Shanghai on 2026-03-10
const TYPES = ['cpu', 'mem', 'disk', 'offline', 'time_drift'];

interface Seed {
  server_id: number;
  server_name: string | null;
  alert_type: string;
  value: number | null;
  is_recovery: number;
  created_at: string;
}

/** Deterministic pseudo-random rows over ten days, including day-edge instants. */
function seedRows(serverIds: number[]): Seed[] {
  let x = 42;
  const rnd = () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
  const rows: Seed[] = [];
  const start = NOW - 10 * 86_400_000;
  for (let i = 0; i < 400; i++) {
    const type = TYPES[Math.floor(rnd() * TYPES.length)];
    rows.push({
      server_id: serverIds[Math.floor(rnd() * serverIds.length)],
      server_name: null,
      alert_type: type,
      value: type === 'offline' ? null : Math.round(rnd() * 1000) / 10,
      is_recovery: rnd() < 0.4 ? 1 : 0,
      created_at: new Date(start + Math.floor(rnd() * 10 * 86_400_000)).toISOString(),
    });
  }
  // Exactly on and around the Shanghai midnight between 03-04 and 03-05 (16:00 UTC).
  for (const at of ['2026-03-04T15:59:59.999Z', '2026-03-04T16:00:00.000Z', '2026-03-04T16:00:00.001Z']) {
    rows.push({ server_id: serverIds[0], server_name: null, alert_type: 'cpu', value: 91, is_recovery: 0, created_at: at });
  }
  return rows;
}

const shanghaiDay = (iso: string) => new Date(Date.parse(iso) + 8 * 3600_000).toISOString().slice(0, 10);

describe.each(dbKinds())('alert history on %s', (db) => {
  let t: TestApp;
  let servers: number[];
  let seeds: Seed[];

  beforeAll(async () => {
    t = await makeTestApp({ db, env: offlineEnv(), now: () => NOW });
    servers = [await createServer(t, 'alpha'), await createServer(t, 'beta'), await createServer(t, 'gamma'), 9999];
    seeds = seedRows(servers);
    seeds[0] = { ...seeds[0], server_id: 9999, server_name: 'gone-server' };
    seeds[1] = { ...seeds[1], server_id: servers[1], server_name: 'beta-then' };
    await t.app.services.db.insertInto('alert_log').values(seeds).execute();
  });
  afterAll(async () => t?.close());

  const get = async (q: string) => t.app.inject({ url: `/api/alert-history?${q}`, headers: await t.auth() });
  type Pred = (s: Seed) => boolean;
  const expectTotal = async (q: string, pred: Pred) => {
    const body = await history(t, q);
    expect(body.total, q).toBe(seeds.filter(pred).length);
    return body;
  };

  it('lists newest first with the documented entry shape and name fallbacks', async () => {
    const body = await history(t, 'limit=200');
    expect(body.total).toBe(seeds.length);
    const items = body.items as HistoryItem[];
    for (let i = 1; i < items.length; i++) {
      const [a, b] = [items[i - 1], items[i]];
      expect(a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id)).toBe(true);
    }
    const all: HistoryItem[] = [];
    for (let page = 1; page <= Math.ceil(seeds.length / 200); page++) all.push(...(await history(t, `per_page=200&page=${page}`)).items);
    expect(all).toHaveLength(seeds.length);
    const names = new Map(all.map((i) => [i.id, i.server_name]));
    const ids = all.map((i) => i.id).sort((a, b) => a - b);
    expect(names.get(ids[0])).toBe('gone-server');
    expect(names.get(ids[1])).toBe('beta-then');
    expect(all.find((i) => i.server_id === servers[0])!.server_name).toBe('alpha');
    expect(all.find((i) => i.server_id === 9999 && i.id !== ids[0])!.server_name).toBe('#9999');
    for (const i of all) {
      expect(typeof i.is_recovery).toBe('boolean');
      expect(i.value === null || typeof i.value === 'number').toBe(true);
      expect(Object.keys(i).sort()).toEqual(['alert_type', 'created_at', 'id', 'is_recovery', 'server_id', 'server_name', 'value']);
    }
  });

  it('filters by server, type, recovery flag and status (status wins over is_recovery)', async () => {
    await expectTotal(`server_id=${servers[1]}`, (s) => s.server_id === servers[1]);
    await expectTotal('type=offline', (s) => s.alert_type === 'offline');
    await expectTotal(`server_id=${servers[2]}&type=mem`, (s) => s.server_id === servers[2] && s.alert_type === 'mem');
    await expectTotal('is_recovery=true', (s) => s.is_recovery === 1);
    await expectTotal('is_recovery=0', (s) => s.is_recovery === 0);
    await expectTotal('status=active', (s) => s.is_recovery === 0);
    await expectTotal('status=recovered&is_recovery=false', (s) => s.is_recovery === 1);
    await expectTotal('status=active&is_recovery=true&type=cpu', (s) => s.is_recovery === 0 && s.alert_type === 'cpu');
    await expectTotal('type=nothing-like-this', () => false);
    // Any status but active and recovered filters nothing; is_recovery still applies.
    await expectTotal('status=all', () => true);
    await expectTotal('status=pending&is_recovery=true', (s) => s.is_recovery === 1);
    const only = await history(t, `server_id=${servers[0]}&type=cpu&status=active&limit=200`);
    expect(only.items.every((i) => i.server_id === servers[0] && i.alert_type === 'cpu' && !i.is_recovery)).toBe(true);
  });

  it('date bounds are whole Asia/Shanghai days (inclusive); a datetime without offset is Shanghai time', async () => {
    const inDays = (from: string, to: string): Pred => (s) => shanghaiDay(s.created_at) >= from && shanghaiDay(s.created_at) <= to;
    await expectTotal('date_from=2026-03-05&date_to=2026-03-05', inDays('2026-03-05', '2026-03-05'));
    await expectTotal('date_from=2026-03-04&date_to=2026-03-04', inDays('2026-03-04', '2026-03-04'));
    await expectTotal('date_from=2026-03-02', inDays('2026-03-02', '9999-12-31'));
    await expectTotal('date_to=2026-03-03', inDays('0000-01-01', '2026-03-03'));
    await expectTotal('date_from=2026-03-06&date_to=2026-03-01', () => false);
    const between = (from: string, to: string): Pred => (s) => s.created_at >= from && s.created_at <= to;
    // Partial days on both edges, within one day, with and without offsets.
    const cases: Array<[string, Pred]> = [
      ['date_from=2026-03-02T13:30:00&date_to=2026-03-07T08:15:00', between('2026-03-02T05:30:00.000Z', '2026-03-07T00:15:00.000Z')],
      ['date_from=2026-03-04T23:59:59.999&date_to=2026-03-05T00:00:00', between('2026-03-04T15:59:59.999Z', '2026-03-04T16:00:00.000Z')],
      ['date_from=2026-03-03T10:00:00Z&date_to=2026-03-03T11:00:00Z', between('2026-03-03T10:00:00.000Z', '2026-03-03T11:00:00.000Z')],
      ['date_from=2026-03-02T06:00:00%2B08:00', between('2026-03-01T22:00:00.000Z', '9999')],
      ['date_to=2026-03-08T18:00:00', between('0000', '2026-03-08T10:00:00.000Z')],
    ];
    for (const [q, pred] of cases) {
      await expectTotal(q, pred);
      await expectTotal(`${q}&type=disk`, (s) => pred(s) && s.alert_type === 'disk');
      await expectTotal(`${q}&server_id=${servers[1]}&status=recovered`, (s) => pred(s) && s.server_id === servers[1] && s.is_recovery === 1);
      await expectTotal(`${q}&server_id=${servers[0]}&type=cpu`, (s) => pred(s) && s.server_id === servers[0] && s.alert_type === 'cpu');
    }
    const edge = await history(t, 'date_from=2026-03-05&date_to=2026-03-05&type=cpu&limit=200');
    expect(edge.items.map((i) => i.created_at)).toContain('2026-03-04T16:00:00.000Z');
    expect(edge.items.map((i) => i.created_at)).not.toContain('2026-03-04T15:59:59.999Z');
  });

  it('invalid dates and parameters are a 422 with a detail', async () => {
    for (const q of [
      'date_from=2026-02-30',
      'date_to=yesterday',
      'date_from=2026-13-01',
      'per_page=0',
      'per_page=201',
      'limit=0',
      'limit=201',
      'page=0',
      'offset=-1',
      'server_id=abc',
      'is_recovery=maybe',
    ]) {
      const res = await get(q);
      expect(res.statusCode, q).toBe(422);
      expect(res.json().detail, q).toEqual(expect.any(String));
    }
  });

  it('pagination: page/per_page → offset, per_page overrides and echoes limit, pages ≥ 1, derived page', async () => {
    const total = seeds.length;
    const p = await history(t, 'page=3&per_page=7&limit=50&offset=999');
    expect(p).toMatchObject({ total, limit: 7, offset: 14, page: 3, per_page: 7, pages: Math.ceil(total / 7) });
    const all = await history(t, 'limit=21');
    expect(p.items.map((i) => i.id)).toEqual(all.items.slice(14, 21).map((i) => i.id));
    expect(await history(t, 'limit=5&offset=10')).toMatchObject({ limit: 5, offset: 10, page: 3, per_page: 5 });
    expect(await history(t, 'offset=7&limit=5')).toMatchObject({ page: 2 });
    expect(await history(t, 'page=2')).toMatchObject({ limit: 50, offset: 50, page: 2, per_page: 50 });
    expect(await history(t, 'per_page=10')).toMatchObject({ limit: 10, offset: 0, page: 1, per_page: 10 });
    expect(await history(t, '')).toMatchObject({ limit: 50, offset: 0, page: 1, per_page: 50, pages: Math.ceil(total / 50) });
    const empty = await history(t, 'type=none&page=4');
    expect(empty).toMatchObject({ items: [], total: 0, pages: 1, page: 4 });
  });

  it('stats: zero-filled Shanghai days oldest first, today, recovered, top lists, active', async () => {
    const res = await t.app.inject({ url: '/api/alert-history/stats?days=3', headers: await t.auth() });
    expect(res.statusCode).toBe(200);
    const s = res.json();
    const days = ['2026-03-08', '2026-03-09', '2026-03-10'];
    expect(s.daily).toEqual(
      days.map((day) => ({
        day,
        alerts: seeds.filter((r) => shanghaiDay(r.created_at) === day && !r.is_recovery).length,
        recoveries: seeds.filter((r) => shanghaiDay(r.created_at) === day && r.is_recovery).length,
      })),
    );
    expect(s.today).toBe(s.daily[2].alerts);
    expect(s.recovered).toBe(s.daily[2].recoveries);
    const window = seeds.filter((r) => shanghaiDay(r.created_at) >= days[0] && shanghaiDay(r.created_at) <= days[2] && !r.is_recovery);
    const tally = <K>(key: (r: Seed) => K) => {
      const m = new Map<K, number>();
      for (const r of window) m.set(key(r), (m.get(key(r)) ?? 0) + 1);
      return m;
    };
    const types = tally((r) => r.alert_type);
    expect(s.top_types.length).toBeLessThanOrEqual(5);
    for (const e of s.top_types) expect(e.count).toBe(types.get(e.alert_type));
    expect(s.top_types.map((e: { count: number }) => e.count)).toEqual([...types.values()].sort((a, b) => b - a).slice(0, 5));
    const byServer = tally((r) => r.server_id);
    for (const e of s.top_servers) expect(e.count).toBe(byServer.get(e.server_id));
    expect(s.top_servers.map((e: { count: number }) => e.count)).toEqual([...byServer.values()].sort((a, b) => b - a).slice(0, 5));
    const names: Record<number, string> = { [servers[0]]: 'alpha', [servers[1]]: 'beta', [servers[2]]: 'gamma', 9999: 'gone-server' };
    for (const e of s.top_servers) expect(e.server_name).toBe(names[e.server_id]);
    expect(s.top_server).toBe(s.top_servers[0].server_name);
    expect(s.active).toBe(0);

    for (const days of [0, -4]) {
      const one = (await t.app.inject({ url: `/api/alert-history/stats?days=${days}`, headers: await t.auth() })).json();
      expect(one.daily).toEqual([s.daily[2]]);
    }
    const week = (await t.app.inject({ url: '/api/alert-history/stats', headers: await t.auth() })).json();
    expect(week.daily).toHaveLength(7);
    expect((await t.app.inject({ url: '/api/alert-history/stats?days=x', headers: await t.auth() })).statusCode).toBe(422);
  });

  it('the daily counters follow deletes and updates of the log', async () => {
    const c = t.app.services;
    const victim = (await history(t, `server_id=${servers[2]}&limit=3`)).items;
    await c.db.deleteFrom('alert_log').where('id', 'in', victim.map((v) => v.id)).execute();
    await c.db.updateTable('alert_log').set({ alert_type: 'disk' }).where('server_id', '=', servers[0]).where('alert_type', '=', 'mem').execute();
    seeds = seeds.filter((s) => !victim.some((v) => v.created_at === s.created_at && v.server_id === s.server_id && v.alert_type === s.alert_type && (v.is_recovery ? 1 : 0) === s.is_recovery));
    seeds = seeds.map((s) => (s.server_id === servers[0] && s.alert_type === 'mem' ? { ...s, alert_type: 'disk' } : s));
    await expectTotal('', () => true);
    await expectTotal('type=disk', (s) => s.alert_type === 'disk');
    await expectTotal(`server_id=${servers[2]}&date_from=2026-03-01`, (s) => s.server_id === servers[2] && s.created_at >= '2026-02-28T16:00:00.000Z');
  });
});
