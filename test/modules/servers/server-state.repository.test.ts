/**
 * Heartbeat times written in one batch: more beats than one UPDATE takes (400), ids that no longer
 * exist, and servers outside the batch, which must keep their status and time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerStateRepository } from '../../../src/modules/servers/server-state.repository.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';

describe.each(dbKinds())('server heartbeat times on %s', (db) => {
  let t: TestApp;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await makeTestApp({ db });
    const at = new Date().toISOString();
    const rows = Array.from({ length: 900 }, (_, i) => ({
      name: `beat-${i}`,
      host: `10.1.${i >> 8}.${i & 255}`,
      port: 22,
      username: 'deploy',
      auth_type: 'key' as const,
      tags: '[]',
      status: 'unknown' as const,
      last_heartbeat_at: null,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 300) {
      const inserted = await t.app.services.db.insertInto('servers').values(rows.slice(i, i + 300)).returning('id').execute();
      ids.push(...inserted.map((r) => Number(r.id)));
    }
  });
  afterAll(async () => t?.close());

  it('marks every beaten server online at its own time, across chunks, and reports only those that exist', async () => {
    const repo = new ServerStateRepository(t.app.services.db);
    // Every other server, newest first, plus two ids that were never issued.
    const beaten = ids.filter((_, i) => i % 2 === 0).reverse();
    const timeOf = (id: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, id % 1000)).toISOString();
    const missing = [Math.max(...ids) + 1000, Math.max(...ids) + 1001];
    const seen = await repo.touch([...beaten, ...missing].map((id) => [id, timeOf(id)]));
    expect(seen.sort((a, b) => a - b)).toEqual([...beaten].sort((a, b) => a - b));

    const rows = await t.app.services.db.selectFrom('servers').select(['id', 'status', 'last_heartbeat_at']).where('id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    for (const [i, id] of ids.entries()) {
      const row = byId.get(id)!;
      if (i % 2 === 0) expect([row.status, row.last_heartbeat_at]).toEqual(['online', timeOf(id)]);
      else expect([row.status, row.last_heartbeat_at]).toEqual(['unknown', null]);
    }
  });
});
