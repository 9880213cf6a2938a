/**
 * GET /api/agent/metrics a page at a time (the Monitoring page with a large fleet): filtered by
 * name or host, sorted on the service by any column, and a page reads only its own servers'
 * readings. A page is always the same slice of the full sorted list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsView } from '../../../src/modules/agent/agent.schemas.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { schemaSerializer } from '../../helpers/schema-serializer.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv } from '../../platform/settings/fake-http.js';
import { createServer, heartbeat, monitoredServer } from './agent-helpers.js';

const T0 = Date.parse('2026-03-10T04:00:00.000Z');
const bySchema = schemaSerializer(MetricsView);

type Item = { server_id: number; name: string; host: string; last: { cpu: number } | null; points: unknown[] };

describe.each(dbKinds())('agent metrics pages on %s', (db) => {
  let t: TestApp;
  let clock = T0;

  beforeAll(async () => {
    t = await makeTestApp({ db, env: offlineEnv(), now: () => clock });
    // Readings far from every alert threshold; web-10 after web-9 only when numbers sort as numbers.
    const readings: Array<[string, number[], string]> = [
      ['pg-web-9', [20, 30, 40], '1.9.0'],
      ['pg-web-10', [70, 60, 50], '1.10.0'],
      ['pg-web-2', [5, 15, 25], '1.2.0'],
    ];
    for (const [name, cpus, version] of readings) {
      const s = await monitoredServer(t, name);
      for (const [i, cpu] of cpus.entries()) {
        clock = T0 + i * 30_000;
        expect((await heartbeat(t, s.token, { cpu, mem: cpu, disk: 10, load: cpu / 10, version } as never)).statusCode).toBe(200);
      }
    }
    await createServer(t, 'pg-db-1', { host: '10.9.9.9' });
  });
  afterAll(async () => t?.close());

  const get = async (q: string) => {
    const res = await t.app.inject({ url: `/api/agent/metrics?${q}`, headers: await t.auth() });
    expect(res.statusCode, `${q}: ${res.body}`).toBe(200);
    return { body: res.json() as { total: number; items: Item[] }, raw: res.body };
  };
  const names = (items: Item[]) => items.map((s) => s.name);

  it('sorts on the service: numbers as numbers, servers without a reading last either way', async () => {
    expect(names((await get('q=pg-&sort=name')).body.items)).toEqual(['pg-db-1', 'pg-web-2', 'pg-web-9', 'pg-web-10']);
    expect(names((await get('q=pg-&sort=cpu&order=desc')).body.items)).toEqual(['pg-web-10', 'pg-web-9', 'pg-web-2', 'pg-db-1']);
    expect(names((await get('q=pg-&sort=cpu&order=asc')).body.items)).toEqual(['pg-web-2', 'pg-web-9', 'pg-web-10', 'pg-db-1']);
    expect(names((await get('q=pg-&sort=version&order=desc')).body.items)).toEqual(['pg-web-10', 'pg-web-9', 'pg-web-2', 'pg-db-1']);
    // No agent (unknown) before online; the newest reading counts (web-10's is 50, web-9's 40).
    expect(names((await get('q=pg-&sort=status')).body.items)[0]).toBe('pg-db-1');
    expect((await get('q=pg-&sort=cpu&order=desc&limit=1')).body.items[0].last).toMatchObject({ cpu: 50 });
  });

  it('pages: each page is the same slice of the whole sorted list, with its own readings only', async () => {
    for (const sort of ['status', 'name', 'cpu', 'mem', 'disk', 'load', 'drift', 'version', 'last_heartbeat']) {
      for (const order of ['asc', 'desc']) {
        const whole = (await get(`q=PG-&sort=${sort}&order=${order}&points=2`)).body;
        expect(whole.total, sort).toBe(4);
        const pages: Item[] = [];
        for (let offset = 0; offset < 4; offset += 3) {
          const { body, raw } = await get(`q=PG-&sort=${sort}&order=${order}&points=2&limit=3&offset=${offset}`);
          expect(body.total).toBe(4);
          expect(raw).toBe(bySchema(body));
          pages.push(...body.items);
        }
        expect(pages, `${sort} ${order}`).toEqual(whole.items);
      }
    }
    const page = (await get('q=pg-web&sort=name&limit=2&offset=1&points=2')).body;
    expect(page.total).toBe(3);
    expect(names(page.items)).toEqual(['pg-web-9', 'pg-web-10']);
    expect(page.items.map((s) => s.points.length)).toEqual([2, 2]);
    // Past the end: an empty page, the total still counted.
    expect(await get('q=pg-&limit=2&offset=10').then((r) => r.body)).toMatchObject({ total: 4, items: [] });
  });

  it('filters by host too, and answers 422 for a bad page or sort', async () => {
    expect(names((await get('q=10.9.9')).body.items)).toEqual(['pg-db-1']);
    for (const q of ['limit=0', 'limit=501', 'offset=-1', 'sort=bogus', 'order=up', `q=${'x'.repeat(256)}`]) {
      const res = await t.app.inject({ url: `/api/agent/metrics?${q}`, headers: await t.auth() });
      expect(res.statusCode, q).toBe(422);
    }
  });
});
