/**
 * The newest N readings of every server, read per server through the (server_id, at) index
 * (LATERAL on PostgreSQL, a correlated probe on SQLite): oldest first, ties on the time broken by
 * insertion order as the newest-first LIMIT does, servers with fewer readings whole, deleted
 * servers' readings left out. And each server's newest reading as kept beside them (what the
 * monitoring list sorts by): the same reading `recent(1)` finds, whatever order batches arrive in.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { HeartbeatPointsRepository, type PointRow } from '../../../src/modules/agent/heartbeat-points.repository.js';
import { freshDb, type Cleanup } from '../../db/fresh-db.js';
import { dbKinds } from '../../helpers/targets.js';

describe.each(dbKinds())('heartbeat points repository on %s', (kind) => {
  const cleanups: Cleanup[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('returns each server its newest points, oldest first, ties by insertion order', async () => {
    const h = await freshDb(kind, cleanups);
    await migrateToLatest(h.db);
    const at = '2026-03-10T04:00:00.000Z';
    const ids: number[] = [];
    for (const name of ['a', 'b', 'c']) {
      const row = await h.db
        .insertInto('servers')
        .values({ name, host: `${name}.test`, port: 22, username: 'root', auth_type: 'key', tags: '[]', created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
    const [a, b, c] = ids;
    const point = (server_id: number, second: number, cpu: number): PointRow => ({
      server_id,
      at: `2026-03-10T04:00:${String(second).padStart(2, '0')}.000Z`,
      cpu,
      mem: 1,
      disk: 2,
      load: null,
      drift_s: 0,
      version: null,
    });
    const repo = new HeartbeatPointsRepository(h.db);
    // a: five readings, the last three sharing one time (a burst flushed together); b: one; c: none.
    await repo.insert([point(a, 1, 10), point(a, 2, 20), point(a, 3, 30), point(b, 5, 50), point(a, 3, 31), point(a, 3, 32)]);
    const cpus = (rows: PointRow[], server: number) => rows.filter((r) => r.server_id === server).map((r) => r.cpu);

    const three = await repo.recent(3);
    expect(cpus(three, a)).toEqual([30, 31, 32]);
    expect(cpus(three, b)).toEqual([50]);
    expect(cpus(three, c)).toEqual([]);
    const two = await repo.recent(2);
    expect(cpus(two, a)).toEqual([31, 32]);
    const four = await repo.recent(4);
    expect(cpus(four, a)).toEqual([20, 30, 31, 32]);
    expect(four[0]).toEqual(point(a, 2, 20));
    // Grouped by server, each oldest first.
    expect(four.map((r) => r.server_id)).toEqual([a, a, a, a, b]);
  });

  it('keeps each server its newest reading: the same one recent(1) finds, never an older batch over a newer one, pruned with the readings', async () => {
    const h = await freshDb(kind, cleanups);
    await migrateToLatest(h.db);
    const repo = new HeartbeatPointsRepository(h.db);
    const point = (server_id: number, second: number, cpu: number): PointRow => ({
      server_id, at: `2026-03-10T04:00:${String(second).padStart(2, '0')}.000Z`, cpu, mem: cpu + 1, disk: 2, load: second % 2 ? 0.5 : null, drift_s: -second, version: `1.${second}`,
    });
    const newest = async () => new Map((await repo.newest()).map((p) => [p.server_id, p]));
    const recentOne = async () => new Map((await repo.recent(1)).map((p) => [p.server_id, p]));

    // Server 101: a burst with a tie on the newest time (the later wins); server 102: one reading.
    await repo.insert([point(101, 1, 10), point(101, 3, 30), point(102, 5, 50), point(101, 3, 31), point(101, 2, 20)]);
    expect((await newest()).get(101)).toEqual(point(101, 3, 31));
    expect((await newest()).get(102)).toEqual(point(102, 5, 50));
    // A later batch moves server 101 on; a batch holding only an older reading of server 102 does not.
    await repo.insert([point(101, 7, 70), point(102, 4, 40)]);
    expect((await newest()).get(101)).toEqual(point(101, 7, 70));
    expect((await newest()).get(102)).toEqual(point(102, 5, 50));
    // Servers that exist get exactly what the newest-first read of their readings gives.
    const ids: number[] = [];
    for (const name of ['a', 'b']) {
      const at = '2026-03-10T04:00:00.000Z';
      const row = await h.db.insertInto('servers')
        .values({ name, host: `${name}.test`, port: 22, username: 'root', auth_type: 'key', tags: '[]', created_at: at, updated_at: at })
        .returning('id').executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
    await repo.insert([point(ids[0], 8, 80), point(ids[1], 9, 90), point(ids[0], 8, 81)]);
    const [kept, read] = [await newest(), await recentOne()];
    for (const id of ids) expect(kept.get(id)).toEqual(read.get(id));

    // A failed batch leaves the newest readings as they were.
    await expect(repo.insert([point(101, 9, 99), { ...point(102, 9, 99), cpu: null as unknown as number }])).rejects.toThrow();
    expect((await newest()).get(101)).toEqual(point(101, 7, 70));

    // Pruning drops a server's newest reading with its readings once it is older than the cut.
    await repo.pruneBefore('2026-03-10T04:00:06.000Z', '2026-03-10T04:01:00.000Z');
    expect([...(await newest()).keys()].sort((x, y) => x - y)).toEqual([101, ...ids].sort((x, y) => x - y));
    await repo.pruneBefore('2026-03-10T04:00:08.500Z', '2026-03-10T04:01:00.000Z');
    expect([...(await newest()).keys()]).toEqual([ids[1]]);
  });
});
