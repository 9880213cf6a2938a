/**
 * The numbered live messages of a push batch: started, per-server transfer progress parsed from
 * rsync (percent, bytes, rate; at most two a second per server), done, complete — each with the
 * next `seq` of its batch — and their replay for a page that reconnects or opens the batch later.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import type { PushEvent } from '../../../src/platform/events/live-events.schemas.js';
import { addServer, appFor, caller, remoteDir, rmrf, stagingDir } from './push-helpers.js';

const shared = inject('sshd');

describe.each(dbKinds())('push events on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  const cleanup: string[] = [];

  beforeAll(async () => {
    t = await appFor(db);
  });
  afterAll(async () => {
    await t?.close();
    rmrf(...cleanup);
  });

  it('numbers every message of a batch, reports rsync progress, and replays exactly what was missed', async () => {
    const src = stagingDir({ 'small.txt': 'hello\n' });
    // Big enough for rsync to report progress more than once on loopback.
    fs.writeFileSync(path.join(src, 'big.bin'), Buffer.alloc(256 * 1024 * 1024, 7));
    const dests = [remoteDir(shared, 'ev-a'), remoteDir(shared, 'ev-b')];
    cleanup.push(src, ...dests);
    const ids = [
      await addServer(call, shared, 'ev-a', { target_path: dests[0] }),
      await addServer(call, shared, 'ev-b', { target_path: dests[1] }),
    ];
    const batchId = `ev_${randomUUID().slice(0, 8)}`;
    const live: Array<PushEvent & { at: number }> = [];
    const off = t.app.services.events.on((e) => {
      if ('batch_id' in e && e.batch_id === batchId) live.push({ ...e, at: Date.now() });
    });
    try {
      const res = await call('POST', '/api/sync/files', { server_ids: ids, source_path: src, batch_id: batchId, concurrency: 2 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'completed', succeeded: 2 });
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      off();
    }

    // Numbered 1..N without gaps or doubles, started first, complete last.
    expect(live.map((e) => e.seq)).toEqual(live.map((_, i) => i + 1));
    expect(live[0]).toMatchObject({ type: 'push_started', seq: 1, total: 2, sync_mode: 'incremental', source_path: src });
    expect(live.at(-1)).toMatchObject({ type: 'push_complete', status: 'completed', succeeded: 2, failed: 0 });
    for (const id of ids) {
      const mine = live.filter((e) => e.server_id === id);
      expect(mine[0]).toMatchObject({ type: 'push_progress', status: 'running' });
      expect(mine.at(-1)).toMatchObject({ type: 'push_progress', status: 'success', bytes_transferred: 256 * 1024 * 1024 + 6 });
      const transfer = mine.filter((e) => e.status === 'running' && e.percent !== undefined);
      expect(transfer.length).toBeGreaterThanOrEqual(1);
      for (const e of transfer) {
        expect(e).toMatchObject({ percent: expect.any(Number), bytes_transferred: expect.any(Number), rate_bps: expect.any(Number), eta_s: expect.any(Number) });
        expect(e.percent as number).toBeGreaterThanOrEqual(0);
        expect(e.percent as number).toBeLessThanOrEqual(100);
      }
      // At most two transfer messages a second per server (one interval of slack for timers).
      for (let i = 2; i < transfer.length; i++) expect(transfer[i].at - transfer[i - 2].at).toBeGreaterThanOrEqual(900);
    }

    // A page that saw everything up to seq k gets k+1..N, exactly once each.
    const all = (await call('GET', `/api/sync/batches/${batchId}/events`)).json();
    expect(all).toMatchObject({ batch_id: batchId, status: 'completed', more: false, last_seq: live.length });
    expect(all.events.map((e: PushEvent) => [e.seq, e.type, e.status])).toEqual(live.map((e) => [e.seq, e.type, e.status]));
    const k = Math.floor(live.length / 2);
    const rest = (await call('GET', `/api/sync/batches/${batchId}/events?after=${k}&limit=2`)).json();
    expect(rest.events.map((e: PushEvent) => e.seq)).toEqual([k + 1, k + 2]);
    expect(rest).toMatchObject({ more: live.length > k + 2, last_seq: k + 2 });
    const none = (await call('GET', `/api/sync/batches/${batchId}/events?after=${live.length}`)).json();
    expect(none).toMatchObject({ events: [], last_seq: live.length, more: false });

    expect((await call('GET', '/api/sync/batches/nope_nope/events')).statusCode).toBe(404);
    expect((await call('GET', `/api/sync/batches/${batchId}/events?after=-1`)).statusCode).toBe(422);
  }, 60_000);
});
