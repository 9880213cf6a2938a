/**
 * Duplicate and overlapping pushes: one Idempotency-Key makes one batch however many times it is
 * sent, and one (server, target) has one writer at a time across batches, retry jobs and
 * schedules, with claims that a dead process cannot keep.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSshd, type SshdInstance } from '../../fixtures/sshd.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { TargetClaims } from '../../../src/modules/push/target-claims.js';
import { TargetClaimsRepository } from '../../../src/modules/push/target-claims.repository.js';
import { addServer, appFor, caller, digestTree, remoteDir, rmrf, stagingDir, until } from './push-helpers.js';

const shared = inject('sshd');

describe.each(dbKinds())('push safety on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  let src: string;
  let healthy: number;
  let hdir: string;
  const cleanup: string[] = [];

  beforeAll(async () => {
    t = await appFor(db);
    src = stagingDir({ 'a.txt': 'alpha\n', 'sub/b.txt': 'beta\n' });
    hdir = remoteDir(shared, 'healthy');
    healthy = await addServer(call, shared, 'healthy', { target_path: hdir });
    cleanup.push(src, hdir);
  });
  afterAll(async () => {
    await t?.close();
    rmrf(...cleanup);
  });

  const withKey = async (key: string, body: Record<string, unknown>, url = '/api/sync/files') =>
    t.app.inject({ method: 'POST', url, headers: { ...(await t.auth()), 'idempotency-key': key }, payload: body });
  const batchTotal = async () => (await call('GET', '/api/sync/batch-summaries?limit=1')).json().total as number;
  /** A claim held by another process (a batch it runs), with its own lease clock. */
  const otherProcess = (owner: string, now = () => Date.now()) =>
    new TargetClaims({ repo: new TargetClaimsRepository(t.app.services.db), owner, now });

  it('two clients racing the same push with one Idempotency-Key make exactly one batch', async () => {
    const before = await batchTotal();
    const key = randomUUID();
    const body = { server_ids: [healthy], source_path: src, async: true };
    const [a, b] = await Promise.all([withKey(key, body), withKey(key, body)]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([202, 202]);
    expect(a.json().batch_id).toBe(b.json().batch_id);
    expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']].sort()).toEqual(['true', undefined].sort());
    await t.app.services.push.waitFor(a.json().batch_id);
    expect(await batchTotal()).toBe(before + 1);
    expect(digestTree(hdir)).toEqual(digestTree(src));

    // Later (within 10 minutes) the same key still answers the first answer and starts nothing.
    const again = await withKey(key, body);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ batch_id: a.json().batch_id, status: 'running' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await batchTotal()).toBe(before + 1);

    // The same key with another request is refused; a key of another caller is its own.
    const reused = await withKey(key, { ...body, sync_mode: 'checksum' });
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toEqual({ detail: 'This Idempotency-Key was already used for a different request', code: 'idempotency_key_reused' });
    expect(await batchTotal()).toBe(before + 1);
  });

  it('a malformed Idempotency-Key is a 400 and starts nothing; an error answer frees the key', async () => {
    const before = await batchTotal();
    for (const bad of ['', 'x'.repeat(129), 'has space', 'ü']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sync/files',
        headers: { ...(await t.auth()), 'idempotency-key': Buffer.from(bad, 'utf8').toString('latin1') },
        payload: { server_ids: [healthy], source_path: src },
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ detail: 'Idempotency-Key must be 1 to 128 visible ASCII characters', code: 'idempotency_key_invalid' });
    }
    const key = randomUUID();
    const refused = await withKey(key, { server_ids: [healthy], source_path: '/etc' });
    expect(refused.statusCode).toBe(403);
    expect(await batchTotal()).toBe(before);
    // The key was not spent on the refusal: the corrected request... is another request, so a new key.
    const first = await withKey(key, { server_ids: [healthy], source_path: src });
    expect(first.statusCode).toBe(200);
    expect(first.json(), first.body).toMatchObject({ status: 'completed', succeeded: 1 });
    // A synchronous repeat gets the finished batch as it was answered.
    const repeat = await withKey(key, { server_ids: [healthy], source_path: src });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual(first.json());
    expect(await batchTotal()).toBe(before + 1);
  });

  describe('one writer per target', () => {
    let victim: SshdInstance;
    let vId: number;
    let vdir: string;
    let big: string;

    beforeAll(async () => {
      victim = await startSshd();
      vdir = remoteDir(victim, 'victim');
      vId = await addServer(call, victim, 'victim', { target_path: vdir });
      big = stagingDir({ 'small.txt': 'small\n' });
      const fd = fs.openSync(path.join(big, 'big.bin'), 'w');
      fs.ftruncateSync(fd, 1024 * 1024 * 1024); // sparse: instant locally, a long transfer remotely
      fs.closeSync(fd);
      cleanup.push(vdir, big);
    });
    afterAll(async () => {
      await victim?.stop();
    });

    it('two different keys racing to one target: one batch writes, the other server fails busy naming it', async () => {
      const first = await withKey(randomUUID(), { server_ids: [vId], source_path: big, async: true });
      expect(first.statusCode).toBe(202);
      const writer = first.json().batch_id as string;
      // The first batch's rsync is writing (its temp file exists).
      await until(async () => fs.existsSync(vdir) && fs.readdirSync(vdir).some((n) => n.startsWith('.big.bin.')));

      const second = await withKey(randomUUID(), { server_ids: [vId, healthy], source_path: src });
      expect(second.statusCode).toBe(200);
      const b = second.json();
      expect(b).toMatchObject({ status: 'partial', total: 2, succeeded: 1, failed: 1 });
      expect(b.results).toEqual([
        expect.objectContaining({
          server_id: vId, status: 'failed', error: `target ${vdir} is being written by batch ${writer}`, error_code: 'target_busy', retry_job_id: null, files_transferred: 0,
        }),
        expect.objectContaining({ server_id: healthy, status: 'success', error: null, error_code: null }),
      ]);
      // No retry job for a busy refusal.
      const jobs = (await call('GET', '/api/retries')).json() as Array<{ server_id: number }>;
      expect(jobs.filter((j) => j.server_id === vId)).toEqual([]);

      // Other spellings of the same directory, and directories nested either way, are busy too.
      const spelled = (await call('POST', '/api/sync/files', { server_ids: [vId], source_path: src, target_path: `${vdir.replace('/fleet-', '//./fleet-')}/` })).json();
      expect(spelled.results[0]).toMatchObject({ status: 'failed', error_code: 'target_busy', error: `target ${vdir} is being written by batch ${writer}` });
      const parent = path.dirname(vdir);
      const outer = (await call('POST', '/api/sync/files', { server_ids: [vId], source_path: src, target_path: parent })).json();
      expect(outer.results[0]).toMatchObject({ status: 'failed', error_code: 'target_busy', error: `target ${parent} overlaps ${vdir}, which batch ${writer} is writing` });
      const inner = (await call('POST', '/api/sync/files', { server_ids: [vId], source_path: src, target_path: `${vdir}/deeper` })).json();
      expect(inner.results[0]).toMatchObject({ status: 'failed', error: `target ${vdir}/deeper overlaps ${vdir}, which batch ${writer} is writing` });
      // A sibling directory on the same server is free.
      const sibling = remoteDir(victim, 'sibling');
      cleanup.push(sibling);
      expect((await call('POST', '/api/sync/files', { server_ids: [vId], source_path: src, target_path: sibling })).json()).toMatchObject({ status: 'completed' });

      // The writer's transfer ends (its server drops): its claim goes with it.
      victim.kill();
      await t.app.services.push.waitFor(writer);
      expect((await call('GET', `/api/sync/batches/${writer}`)).json()).toMatchObject({ status: 'failed' });
      expect((await t.app.services.claims.list()).filter((c) => c.server_id === vId)).toEqual([]);
    });

    it('a second push after the first finished writes; claims go after success, failure and cancel', async () => {
      for (let i = 0; i < 2; i++) {
        expect((await call('POST', '/api/sync/files', { server_ids: [healthy], source_path: src })).json()).toMatchObject({ status: 'completed', succeeded: 1 });
      }
      const pre = `pre_${randomUUID().slice(0, 8)}`;
      await call('POST', '/api/sync/cancel', { batch_id: pre });
      expect((await call('POST', '/api/sync/files', { server_ids: [healthy], source_path: src, batch_id: pre })).json()).toMatchObject({ status: 'cancelled', skipped: 1 });
      expect(await t.app.services.claims.list()).toEqual([]);
    });
  });

  it("lease recovery releases a dead process's claims and keeps a live one's", async () => {
    const dead = otherProcess('dead-host:1:aaaa', () => Date.now() - 60_000);
    const live = otherProcess('live-host:2:bbbb');
    expect(await dead.claim({ kind: 'batch', id: 'ghost' }, [{ serverId: healthy, targetPath: '/srv/dead' }])).toEqual(new Map());
    // On another server: any claim on a server first clears that server's expired claims.
    expect(await live.claim({ kind: 'batch', id: 'alive' }, [{ serverId: healthy + 1000, targetPath: '/srv/live' }])).toEqual(new Map());
    expect((await t.app.services.claims.list()).map((c) => c.holder_id).sort()).toEqual(['alive', 'ghost']);
    await t.app.services.push.recoverExpired();
    expect((await t.app.services.claims.list()).map((c) => c.holder_id)).toEqual(['alive']);
    await live.releaseAll({ kind: 'batch', id: 'alive' });

    // Even before a patrol, a push is never blocked by an expired claim.
    await dead.claim({ kind: 'batch', id: 'ghost' }, [{ serverId: healthy, targetPath: hdir }]);
    expect((await call('POST', '/api/sync/files', { server_ids: [healthy], source_path: src })).json()).toMatchObject({ status: 'completed' });
    expect(await t.app.services.claims.list()).toEqual([]);
  });

  it('retry jobs and schedules respect the busy rule', async () => {
    const holder = otherProcess('other-host:3:cccc');
    await holder.claim({ kind: 'batch', id: 'elsewhere' }, [{ serverId: healthy, targetPath: hdir }]);
    const busy = `target ${hdir} is being written by batch elsewhere`;

    // A schedule's push goes through the same check.
    const s = (
      await call('POST', '/api/schedules', { name: 'busy', source_path: src, server_ids: [healthy], fire_at: new Date(Date.now() - 1000).toISOString() })
    ).json();
    const out = (await t.app.services.schedules.runDue()).filter((o) => o.schedule_id === s.id);
    expect(out).toHaveLength(1);
    const batch = (await call('GET', `/api/sync/batches/${out[0].batch_id}`)).json();
    expect(batch).toMatchObject({ operator: 'scheduler', status: 'failed' });
    expect(batch.results[0]).toMatchObject({ status: 'failed', error: busy, error_code: 'target_busy', retry_job_id: null });

    // A due retry job waits for its next step without using an attempt, then runs once the target is free.
    const jobId = await t.app.services.retries.createForFailure({
      serverId: healthy, serverName: 'healthy', operator: 'admin', source: src, targetPath: hdir, mode: 'incremental', batchId: null, error: 'earlier failure',
    });
    const job = async () => ((await call('GET', '/api/retries')).json() as Array<Record<string, unknown>>).find((j) => j.id === jobId)!;
    const later = Date.now() + 61_000;
    await t.app.services.retries.runDueRetries(new Date(later));
    expect(await job()).toMatchObject({ status: 'pending', retry_count: 0, last_error: busy });
    await holder.releaseAll({ kind: 'batch', id: 'elsewhere' });
    fs.rmSync(hdir, { recursive: true, force: true });
    await t.app.services.retries.runDueRetries(new Date(later + 61_000));
    expect(await job()).toMatchObject({ status: 'succeeded', retry_count: 0 });
    expect(digestTree(hdir)).toEqual(digestTree(src));
    expect(await t.app.services.claims.list()).toEqual([]);
  });

  it('a retry job holds its target while it runs: a push into it meanwhile is busy naming the job', async () => {
    const holder = { kind: 'retry_job' as const, id: 4242 };
    expect(await t.app.services.claims.claimOne(holder, { serverId: healthy, targetPath: hdir })).toBeNull();
    const b = (await call('POST', '/api/sync/files', { server_ids: [healthy], source_path: src })).json();
    expect(b.results[0]).toMatchObject({ status: 'failed', error: `target ${hdir} is being written by retry job 4242`, error_code: 'target_busy' });
    await t.app.services.claims.release(holder, healthy);
  });
});

// Two worker processes on one PostgreSQL database and one Redis: the claims and keys are rows, so
// they hold across processes, not only within one.
describe.runIf(dbKinds().includes('postgres'))('push safety across two workers on postgres', () => {
  let a: TestApp;
  let b: TestApp;
  let victim: SshdInstance;
  const cleanup: string[] = [];

  beforeAll(async () => {
    a = await appFor('postgres');
    b = await makeTestApp({ shareWith: a, role: 'worker' });
    victim = await startSshd();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await victim?.stop();
    rmrf(...cleanup);
  });

  const post = async (t: TestApp, body: Record<string, unknown>, key: string) =>
    t.app.inject({ method: 'POST', url: '/api/sync/files', headers: { ...(await t.auth()), 'idempotency-key': key }, payload: body });

  it('one key sent to both workers at once makes one batch; new pushes racing into its target are refused naming it', async () => {
    const call = caller(() => a);
    const vdir = remoteDir(victim, 'workers');
    const vId = await addServer(call, victim, 'workers', { target_path: vdir });
    const big = stagingDir({ 'small.txt': 'small\n' });
    const fd = fs.openSync(path.join(big, 'big.bin'), 'w');
    fs.ftruncateSync(fd, 1024 * 1024 * 1024);
    fs.closeSync(fd);
    cleanup.push(vdir, big);
    const body = { server_ids: [vId], source_path: big, async: true };

    const key = randomUUID();
    const [r1, r2] = await Promise.all([post(a, body, key), post(b, body, key)]);
    expect([r1.statusCode, r2.statusCode]).toEqual([202, 202]);
    const writer = r1.json().batch_id as string;
    expect(r2.json().batch_id).toBe(writer);
    expect((await call('GET', '/api/sync/batch-summaries')).json().total).toBe(1);

    // Both workers race a new push of the same target with their own keys: both are refused,
    // each naming the batch that is writing.
    const [s1, s2] = await Promise.all([post(a, body, randomUUID()), post(b, body, randomUUID())]);
    for (const s of [s1, s2]) {
      expect(s.statusCode).toBe(202);
      const seen = (await call('GET', `/api/sync/batches/${s.json().batch_id}`)).json();
      expect(seen.results[0]).toMatchObject({ status: 'failed', error_code: 'target_busy', error: `target ${vdir} is being written by batch ${writer}` });
    }
    victim.kill();
    await a.app.services.push.waitFor(writer);
    await b.app.services.push.waitFor(writer);
    expect(await a.app.services.claims.list()).toEqual([]);
  });

  it('two keys racing to one free target on two workers: exactly one writes, the other is busy naming it', async () => {
    const other = await startSshd();
    try {
      const call = caller(() => a);
      const dir = remoteDir(other, 'race');
      const id = await addServer(call, other, 'race', { target_path: dir });
      const big = stagingDir({ 'small.txt': 'small\n' });
      const fd = fs.openSync(path.join(big, 'big.bin'), 'w');
      fs.ftruncateSync(fd, 1024 * 1024 * 1024);
      fs.closeSync(fd);
      cleanup.push(dir, big);
      const body = { server_ids: [id], source_path: big, async: true };
      const [r1, r2] = await Promise.all([post(a, body, randomUUID()), post(b, body, randomUUID())]);
      const batches = await Promise.all([r1, r2].map(async (r) => (await call('GET', `/api/sync/batches/${r.json().batch_id}`)).json()));
      const busy = batches.filter((x) => x.results[0].error_code === 'target_busy');
      const writing = batches.filter((x) => x.results[0].error_code === null);
      expect(busy).toHaveLength(1);
      expect(writing).toHaveLength(1);
      expect(busy[0].results[0].error).toBe(`target ${dir} is being written by batch ${writing[0].batch_id}`);
      other.kill();
      await Promise.all([a, b].map((t) => t.app.services.push.waitFor(writing[0].batch_id)));
    } finally {
      await other.stop();
    }
  });
});
