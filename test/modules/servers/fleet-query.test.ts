/** The fleet a page at a time: search, tag and status filters, sorts, paging, ids, tags, counts. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';

describe.each(dbKinds())('fleet queries on %s', (db) => {
  let t: TestApp;
  const get = async (url: string) => t.app.inject({ method: 'GET', url, headers: await t.auth() });

  // name, host, tags, status, last heartbeat (minutes ago; null = never)
  const FLEET: Array<[string, string, string[], 'online' | 'offline' | 'unknown', number | null]> = [
    ['web-1', '10.0.0.1', ['web', 'prod'], 'online', 1],
    ['web-2', '10.0.0.2', ['web', 'prod'], 'offline', 30],
    ['Web-3', 'web3.example.com', ['web'], 'unknown', null],
    ['db-1', '10.0.1.1', ['db', 'prod'], 'online', 2],
    ['db_2', '10.0.1.2', ['db'], 'offline', 60],
    ['odd 100%', '10.9.9.9', ['50%_off', 'say "hi"'], 'online', 5],
  ];

  beforeAll(async () => {
    t = await makeTestApp({ db });
    for (const [name, host, tags, status, ago] of FLEET) {
      const res = await t.app.inject({ method: 'POST', url: '/api/servers', headers: await t.auth(), payload: { name, host, tags } });
      expect(res.statusCode).toBe(201);
      await t.app.services.db
        .updateTable('servers')
        .set({ status, last_heartbeat_at: ago === null ? null : new Date(Date.now() - ago * 60_000).toISOString() })
        .where('id', '=', res.json().id)
        .execute();
    }
  });
  afterAll(async () => t?.close());

  const names = async (query: string) => {
    const res = await get(`/api/servers/search?${query}`);
    expect(res.statusCode).toBe(200);
    return (res.json().items as Array<{ name: string }>).map((s) => s.name);
  };

  it.each([
    ['q=web', ['web-1', 'web-2', 'Web-3']],
    ['q=WEB3', ['Web-3']],
    ['q=10.0.1', ['db-1', 'db_2']],
    ['q=db_', ['db_2']],
    ['q=100%25', ['odd 100%']],
    ['q=%25', ['odd 100%']],
    ['tag=prod', ['db-1', 'web-1', 'web-2']],
    ['tag=db', ['db-1', 'db_2']],
    ['tag=50%25_off', ['odd 100%']],
    [`tag=${encodeURIComponent('say "hi"')}`, ['odd 100%']],
    ['tag=pro', []],
    ['status=offline', ['db_2', 'web-2']],
    ['tag=web&status=online', ['web-1']],
    ['sort=name&order=desc', ['Web-3', 'web-2', 'web-1', 'odd 100%', 'db_2', 'db-1']],
    ['sort=status', ['db_2', 'web-2', 'Web-3', 'db-1', 'odd 100%', 'web-1']],
    ['sort=last_heartbeat&order=desc', ['web-1', 'db-1', 'odd 100%', 'web-2', 'db_2', 'Web-3']],
    ['sort=last_heartbeat', ['db_2', 'web-2', 'odd 100%', 'db-1', 'web-1', 'Web-3']],
  ])('%s', async (query, expected) => {
    const got = await names(query);
    if (query.startsWith('sort')) expect(got).toEqual(expected);
    else expect(got.sort()).toEqual([...expected].sort());
  });

  it('pages with a total', async () => {
    const first = (await get('/api/servers/search?sort=name&limit=4')).json();
    const second = (await get('/api/servers/search?sort=name&limit=4&offset=4')).json();
    expect(first).toMatchObject({ total: 6, limit: 4, offset: 0 });
    expect(first.items).toHaveLength(4);
    expect(second.items.map((s: { name: string }) => s.name)).toEqual(['web-2', 'Web-3']);
    expect(first.items[0]).toMatchObject({ id: expect.any(Number), has_credentials: false, tags: expect.any(Array) });
  });

  it('every id of a filter, the tags with counts, servers by status', async () => {
    const ids = (await get('/api/servers/ids?tag=prod')).json();
    expect(ids).toMatchObject({ total: 3 });
    expect(ids.ids).toHaveLength(3);
    expect((await get('/api/servers/tags')).json()).toEqual([
      { tag: 'prod', count: 3 },
      { tag: 'web', count: 3 },
      { tag: 'db', count: 2 },
      { tag: '50%_off', count: 1 },
      { tag: 'say "hi"', count: 1 },
    ]);
    expect((await get('/api/servers/status-counts')).json()).toEqual({ total: 6, online: 3, offline: 2, unknown: 1, no_agent: 1, ssh: { reachable: 0, failing: 0, never: 6 } });
  });

  it('refuses bad queries with 422 and leaves /api/servers/{id} alone', async () => {
    for (const q of ['status=down', 'sort=cpu', 'limit=0', 'limit=501', 'offset=-1', 'order=up']) {
      expect((await get(`/api/servers/search?${q}`)).statusCode, q).toBe(422);
    }
    expect((await get('/api/servers/999999')).statusCode).toBe(404);
    expect((await get('/api/servers')).json()).toHaveLength(6);
  });
});
