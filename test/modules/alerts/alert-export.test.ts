/**
 * GET /api/alert-history/export.csv: exactly the rows the list returns for the same filters
 * (type, server, status, Asia/Shanghai days), in list order, across keyset pages; text cells that
 * a spreadsheet would run as a formula are defused; a bad date is a 422 before anything is sent.
 * Also the per-day-per-type counts added to the stats.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv } from '../../platform/settings/fake-http.js';
import { createServer, history } from '../agent/agent-helpers.js';
import { parseCsv } from '../../helpers/csv.js';

const NOW = Date.parse('2026-03-10T04:00:00.000Z');
const TYPES = ['cpu', 'mem', 'disk', 'offline', 'time_drift'];

describe.each(dbKinds())('alert history export on %s', (db) => {
  let t: TestApp;
  let ids: number[];

  beforeAll(async () => {
    t = await makeTestApp({ db, env: offlineEnv(), now: () => NOW });
    ids = [await createServer(t, 'exp-alpha'), await createServer(t, 'exp-beta')];
    const rows = [];
    let x = 7;
    const rnd = () => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return x / 2 ** 31;
    };
    // More than one export page (1000 rows), many sharing an instant so the keyset tie-break counts.
    for (let i = 0; i < 2300; i++) {
      const type = TYPES[Math.floor(rnd() * TYPES.length)];
      rows.push({
        server_id: ids[Math.floor(rnd() * 2)],
        server_name: null,
        alert_type: type,
        value: type === 'offline' ? null : Math.round(rnd() * 1000) / 10,
        is_recovery: rnd() < 0.4 ? 1 : 0,
        created_at: new Date(NOW - Math.floor(rnd() * 600) * 1_440_000).toISOString(),
      });
    }
    rows.push({ server_id: ids[0], server_name: '=HYPERLINK("http://x","y")', alert_type: 'cpu', value: 95, is_recovery: 0, created_at: new Date(NOW - 1000).toISOString() });
    rows.push({ server_id: ids[1], server_name: '@sum, "quoted"', alert_type: '-cmd', value: -3, is_recovery: 0, created_at: new Date(NOW - 2000).toISOString() });
    await t.app.services.db.insertInto('alert_log').values(rows).execute();
  });
  afterAll(async () => t?.close());

  const exportCsv = async (q: string) => t.app.inject({ url: `/api/alert-history/export.csv?${q}`, headers: await t.auth() });

  async function listIds(q: string): Promise<number[]> {
    const out: number[] = [];
    for (let page = 1; ; page++) {
      const body = await history(t, `${q}&per_page=200&page=${page}`);
      out.push(...body.items.map((i) => i.id));
      if (page >= (body.pages as number)) return out;
    }
  }

  it.each([
    '',
    'type=cpu',
    `server_id=SERVER`,
    'status=recovered',
    'date_from=2026-03-05&date_to=2026-03-07',
    'type=mem&status=active&server_id=SERVER&date_from=2026-03-01',
  ])('matches the list for the same filters: %s', async (raw) => {
    const q = raw.replace('SERVER', String(ids[1]));
    const res = await exportCsv(q);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="alert-history-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.body.startsWith('\uFEFFid,server_id,server_name,alert_type,value,is_recovery,created_at,created_at_shanghai\r\n')).toBe(true);
    const rows = parseCsv(res.body.slice(1)).slice(1);
    const expected = await listIds(q || 'x=1');
    expect(rows.map((r) => Number(r[0]))).toEqual(expected);
    if (raw === '') expect(rows.length).toBeGreaterThan(2000);
    for (const r of rows) {
      expect(r).toHaveLength(8);
      // The Shanghai column is the UTC time plus 8 hours.
      expect(Date.parse(`${r[7].replace(' ', 'T')}+08:00`)).toBe(Math.floor(Date.parse(r[6]) / 1000) * 1000);
    }
  });

  it('defuses formula-like text cells and quotes commas and quotes', async () => {
    const res = await exportCsv('date_from=2026-03-10');
    const rows = parseCsv(res.body.slice(1));
    const evil = rows.find((r) => r[2].includes('HYPERLINK'))!;
    expect(evil[2]).toBe(`'=HYPERLINK("http://x","y")`);
    const other = rows.find((r) => r[3] === "'-cmd")!;
    expect(other[2]).toBe(`'@sum, "quoted"`);
    expect(other[4]).toBe('-3');
    expect(res.body).toContain(`"'@sum, ""quoted"""`);
  });

  it('refuses bad filters with 422 and a code, and needs a login', async () => {
    for (const q of ['date_from=2026-02-30', 'date_to=yesterday', 'server_id=abc']) {
      const res = await exportCsv(q);
      expect(res.statusCode, q).toBe(422);
      expect(res.json().code, q).toEqual(expect.any(String));
    }
    expect((await t.app.inject({ url: '/api/alert-history/export.csv' })).statusCode).toBe(401);
  });

  it('adds per-day-per-type alert counts to the stats that sum to the daily alerts', async () => {
    const res = await t.app.inject({ url: '/api/alert-history/stats?days=7', headers: await t.auth() });
    expect(res.statusCode).toBe(200);
    const s = res.json() as { daily: Array<{ day: string; alerts: number }>; daily_types: Array<{ day: string; alert_type: string; count: number }> };
    for (const d of s.daily) {
      const sum = s.daily_types.filter((x) => x.day === d.day).reduce((a, b) => a + b.count, 0);
      expect(sum, d.day).toBe(d.alerts);
    }
    expect(s.daily_types.length).toBeGreaterThan(0);
  });
});
