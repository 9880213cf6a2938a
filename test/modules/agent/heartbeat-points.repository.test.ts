/** Heartbeat readings are written a whole batch at a time: all of it, or none (a retry must not write rows twice). */
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { HeartbeatPointsRepository, type PointRow } from '../../../src/modules/agent/heartbeat-points.repository.js';
import { type Cleanup, freshDb } from '../../db/fresh-db.js';
import { dbKinds } from '../../helpers/targets.js';

function points(n: number): PointRow[] {
  return Array.from({ length: n }, (_, i) => ({
    server_id: (i % 7) + 1, at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    cpu: 10, mem: 20, disk: 30, load: null, drift_s: 0, version: null,
  }));
}

describe.each(dbKinds())('heartbeat points repository on %s', (kind) => {
  const cleanups: Cleanup[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('writes a batch of several chunks whole, and nothing of a batch that fails in its last chunk', async () => {
    const h = await freshDb(kind, cleanups);
    await migrateToLatest(h.db);
    const repo = new HeartbeatPointsRepository(h.db);
    const count = async () => Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM agent_heartbeats`.execute(h.db)).rows[0].n);

    await repo.insert(points(1_200)); // statements of 512, 512, 128, 32 and 16 rows
    expect(await count()).toBe(1_200);

    const bad = points(1_200);
    // NOT NULL; the batch is written in server order, so the highest server's row is in the last chunk.
    bad[1_150] = { ...bad[1_150], server_id: 99, cpu: null as unknown as number };
    await expect(repo.insert(bad)).rejects.toThrow();
    expect(await count()).toBe(1_200);
  });

  it('writes a batch in server order, the readings of each server in the order they came', async () => {
    const h = await freshDb(kind, cleanups);
    await migrateToLatest(h.db);
    const repo = new HeartbeatPointsRepository(h.db);
    const sent = [[3, 1], [1, 2], [3, 3], [2, 4], [1, 5], [3, 6], [1, 7]].map(([server, cpu]) => ({ ...points(1)[0], server_id: server, cpu }));
    await repo.insert(sent);
    const rows = await sql<{ server_id: number; cpu: number }>`SELECT server_id, cpu FROM agent_heartbeats ORDER BY id`.execute(h.db);
    expect(rows.rows.map((r) => [Number(r.server_id), Number(r.cpu)])).toEqual([[1, 2], [1, 5], [1, 7], [2, 4], [3, 1], [3, 3], [3, 6]]);
  });

  it('prunes in id order: what is older than the cut and below the first reading within the window, a clock that ran ahead included', async () => {
    const h = await freshDb(kind, cleanups);
    await migrateToLatest(h.db);
    const repo = new HeartbeatPointsRepository(h.db);
    const at = (hms: string) => `2026-01-01T${hms}.000Z`;
    const reading = (server_id: number, when: string, cpu: number): PointRow => ({ ...points(1)[0], server_id, at: when, cpu });
    // One batch each, so the ids follow this order.
    for (const p of [
      reading(1, at('00:00:00'), 1), // old
      reading(2, '2026-01-02T00:00:00.000Z', 2), // stamped a day ahead: the clock ran ahead
      reading(1, at('00:10:00'), 3),
      reading(2, at('00:00:30'), 4), // old, but written after a newer one (a retried batch)
      reading(3, at('00:20:00'), 5),
    ]) await repo.insert([p]);
    const left = async () => (await sql<{ cpu: number }>`SELECT cpu FROM agent_heartbeats ORDER BY id`.execute(h.db)).rows.map((r) => Number(r.cpu));

    await repo.pruneBefore(at('00:05:00'), at('00:30:00'));
    expect(await left()).toEqual([3, 4, 5]);
    // Server 2's newest was the one stamped ahead (an older one never replaces it): gone with it.
    expect((await repo.newest()).map((p) => [p.server_id, p.cpu]).sort()).toEqual([[1, 3], [3, 5]]);
    await repo.pruneBefore(at('00:15:00'), at('00:45:00'));
    expect(await left()).toEqual([5]);
    // Nothing within the window: every reading goes, and each server's newest with them.
    await repo.pruneBefore(at('01:00:00'), at('01:30:00'));
    expect(await left()).toEqual([]);
    expect(await repo.newest()).toEqual([]);

    // No index on the time alone: every reading would pay for one more B-tree insert.
    const indexes = kind === 'sqlite'
      ? await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'agent_heartbeats'`.execute(h.db)
      : await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'agent_heartbeats'`.execute(h.db);
    expect(indexes.rows.map((r) => r.name)).toContain('agent_heartbeats_server');
    expect(indexes.rows.map((r) => r.name)).not.toContain('agent_heartbeats_at');
  });

  it('binds every value to its own column, for each statement size', async () => {
    const h = await freshDb(kind, cleanups);
    await migrateToLatest(h.db);
    const repo = new HeartbeatPointsRepository(h.db);
    // 515 rows: statements of 512, 2 and 1; every column differs from its neighbours in each row.
    const sent: PointRow[] = points(515).map((p, i) => ({
      ...p, cpu: i % 100, mem: (i * 3) % 100, disk: (i * 7) % 100, load: i % 2 ? i / 4 : null, drift_s: 5 - i, version: i % 3 ? `1.${i}` : null,
    }));
    await repo.insert(sent);
    const rows = await sql<PointRow>`SELECT server_id, at, cpu, mem, disk, load, drift_s, version FROM agent_heartbeats ORDER BY at`.execute(h.db);
    expect(rows.rows.map((r) => ({ ...r, server_id: Number(r.server_id), cpu: Number(r.cpu), mem: Number(r.mem), disk: Number(r.disk), load: r.load === null ? null : Number(r.load), drift_s: Number(r.drift_s) }))).toEqual(sent);
  });
});
