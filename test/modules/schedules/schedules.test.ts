import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { addServer, appFor, caller, digestTree, recordEvents, remoteDir, rmrf, stagingDir, type EventLog } from '../push/push-helpers.js';

const sshd = inject('sshd');
const MIN = 60_000;

describe.each(dbKinds())('schedules on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  let ev: EventLog;
  let src: string;
  let serverId: number;
  const cleanup: string[] = [];

  beforeAll(async () => {
    t = await appFor(db);
    ev = recordEvents(t);
    src = stagingDir({ 'x.txt': 'scheduled\n', 'd/y.txt': 'why\n' });
    serverId = await addServer(call, sshd, 'sched');
    cleanup.push(src);
  });
  afterAll(async () => {
    ev?.stop();
    await t?.close();
    rmrf(...cleanup);
  });

  const create = (body: Record<string, unknown>) => call('POST', '/api/schedules', body);
  const logFile = () => {
    const f = path.join(sshd.homeDir, `fleet-sched-${randomUUID().slice(0, 8)}.log`);
    cleanup.push(f);
    return f;
  };
  const lines = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean) : []);

  it('creates a cron push schedule with defaults and a next_run in Asia/Shanghai time', async () => {
    const res = await create({ name: 'nightly', source_path: src, server_ids: [serverId], run_mode: 'cron', cron_expr: '0 9 * * *' });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({
      name: 'nightly', source_path: src, target_path: null, server_ids: [serverId], run_mode: 'cron', cron_expr: '0 9 * * *',
      fire_at: null, sync_mode: 'incremental', enabled: true, schedule_type: 'push', script_id: null, script_content: null,
      exec_timeout: 60, long_task: false, last_run_at: null,
    });
    // 09:00 in Shanghai is 01:00 UTC, the next one after now.
    expect(s.next_run).toMatch(/T01:00:00\.000Z$/);
    expect(Date.parse(s.next_run) - Date.now()).toBeGreaterThan(0);
    expect(Date.parse(s.next_run) - Date.now()).toBeLessThanOrEqual(24 * 60 * MIN);
    expect(Date.parse(s.created_at)).not.toBeNaN();
    expect((await call('GET', '/api/schedules')).json()).toEqual(expect.arrayContaining([expect.objectContaining({ id: s.id })]));
  });

  it('fire_at without an offset is Shanghai time; with one it is taken as given', async () => {
    const local = (await create({ name: 'once', source_path: src, server_ids: [serverId], fire_at: '2030-01-02 03:04:05' })).json();
    expect(local).toMatchObject({ run_mode: 'once', fire_at: '2030-01-01T19:04:05.000Z', next_run: '2030-01-01T19:04:05.000Z' });
    const utc = (await create({ name: 'once-z', source_path: src, server_ids: [serverId], fire_at: '2030-01-02T03:04:05Z' })).json();
    expect(utc.fire_at).toBe('2030-01-02T03:04:05.000Z');
  });

  it('refuses invalid schedules with clear 4xx answers', async () => {
    const base = { name: 'bad', source_path: src, server_ids: [serverId], run_mode: 'cron', cron_expr: '*/5 * * * *' };
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ ...base, cron_expr: '61 * * * *' }, 400],
      [{ ...base, cron_expr: '* * * *' }, 400],
      [{ ...base, cron_expr: '* * * * * *' }, 400],
      [{ ...base, cron_expr: 'every day' }, 400],
      [{ ...base, name: undefined }, 422],
      [{ ...base, source_path: undefined }, 422],
      [{ ...base, server_ids: [] }, 422],
      [{ ...base, cron_expr: undefined }, 422],
      [{ ...base, run_mode: 'weekly' }, 422],
      [{ ...base, sync_mode: 'mirror' }, 422],
      [{ ...base, source_path: '/etc' }, 403],
      [{ name: 'o', source_path: src, server_ids: [serverId] }, 422],
      [{ name: 'o', source_path: src, server_ids: [serverId], fire_at: 'tomorrow' }, 422],
      [{ name: 's', schedule_type: 'script', fire_at: '2030-01-01T00:00:00Z', server_ids: [serverId] }, 422],
      [{ name: 's', schedule_type: 'script', fire_at: '2030-01-01T00:00:00Z', script_id: 999_999 }, 400],
      [{ ...base, exec_timeout: 0 }, 422],
    ];
    const before = (await call('GET', '/api/schedules')).json().length;
    for (const [body, status] of cases) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().detail).toEqual(expect.any(String));
    }
    expect((await call('GET', '/api/schedules')).json()).toHaveLength(before);
  });

  it('PUT changes only the supplied fields; DELETE removes; both 404 when missing; all audited', async () => {
    const s = (await create({ name: 'edit me', source_path: src, server_ids: [serverId], run_mode: 'cron', cron_expr: '*/10 * * * *' })).json();
    const off = await call('PUT', `/api/schedules/${s.id}`, { enabled: false, id: 12345, last_run_at: '2020-01-01', bogus: 1 });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ ...s, enabled: false, next_run: null });
    const renamed = (await call('PUT', `/api/schedules/${s.id}`, { name: 'renamed', enabled: true, exec_timeout: 5, long_task: true })).json();
    expect(renamed).toMatchObject({ id: s.id, name: 'renamed', enabled: true, exec_timeout: 5, long_task: true, cron_expr: '*/10 * * * *' });
    expect(renamed.next_run).toEqual(expect.any(String));
    expect((await call('PUT', `/api/schedules/${s.id}`, { cron_expr: 'nope' })).statusCode).toBe(400);
    expect((await call('PUT', `/api/schedules/${s.id}`, { cron_expr: null })).statusCode).toBe(422);
    const missing = await call('PUT', '/api/schedules/999999', { name: 'x' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Schedule not found', code: 'schedule_not_found' });
    expect((await call('DELETE', `/api/schedules/${s.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/schedules/${s.id}`)).statusCode).toBe(404);
    const actions = (await call('GET', '/api/audit?limit=200')).json().items.map((i: { action: string }) => i.action);
    expect(actions).toEqual(expect.arrayContaining(['create_schedule', 'update_schedule', 'delete_schedule']));
  });

  it('a due once push schedule runs the push as "scheduler", then disables itself', async () => {
    const dest = remoteDir(sshd, 'sched');
    cleanup.push(dest);
    const s = (
      await create({ name: 'push now', source_path: src, target_path: dest, server_ids: [serverId], fire_at: new Date(Date.now() - 1000).toISOString() })
    ).json();
    expect(s.next_run).toBe(s.fire_at);
    const out = (await t.app.services.schedules.runDue()).filter((o) => o.schedule_id === s.id);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ ok: true, batch_status: 'completed' });
    expect(digestTree(dest)).toEqual(digestTree(src));
    const batch = (await call('GET', `/api/sync/batches/${out[0].batch_id}`)).json();
    expect(batch).toMatchObject({ operator: 'scheduler', status: 'completed' });
    const after = (await call('GET', '/api/schedules')).json().find((x: { id: number }) => x.id === s.id);
    expect(after).toMatchObject({ enabled: false, next_run: null });
    expect(after.last_run_at).toEqual(expect.any(String));
    expect((await t.app.services.schedules.runDue()).filter((o) => o.schedule_id === s.id)).toHaveLength(0);
  });

  it('cron and once-by-cron script schedules fire at their matches, with exec_timeout unless long_task', async () => {
    const cronLog = logFile();
    const onceLog = logFile();
    const cron = (
      await create({ name: 'every minute', schedule_type: 'script', server_ids: [serverId], run_mode: 'cron', cron_expr: '* * * * *', script_content: `echo tick >> '${cronLog}'` })
    ).json();
    const script = (await call('POST', '/api/scripts', { name: 'stored', content: `echo once >> '${onceLog}'` })).json();
    const once = (await create({ name: 'next match', schedule_type: 'script', server_ids: [serverId], cron_expr: '* * * * *', script_id: script.id })).json();
    const slow = (
      await create({ name: 'slow', schedule_type: 'script', server_ids: [serverId], fire_at: '2000-01-01T00:00:00Z', exec_timeout: 1, script_content: 'sleep 2; echo late' })
    ).json();
    const long = (
      await create({ name: 'long', schedule_type: 'script', server_ids: [serverId], fire_at: '2000-01-01T00:00:00Z', exec_timeout: 1, long_task: true, script_content: 'sleep 2; echo finished' })
    ).json();
    const mine = (o: { schedule_id: number }) => [cron.id, once.id, slow.id, long.id].includes(o.schedule_id);

    const now = Date.now();
    const first = (await t.app.services.schedules.runDue(new Date(now))).filter(mine);
    expect(first.map((o) => o.schedule_id).sort()).toEqual([slow.id, long.id].sort());
    const byRun = (o: { run_id?: string }) => ev.next((e) => e.type === 'script_progress' && e.run_id === o.run_id && e.status !== 'running');
    const slowDone = await byRun(first.find((o) => o.schedule_id === slow.id)!);
    expect(slowDone).toMatchObject({ status: 'failed', error: 'Timed out after 1 s' });
    const longDone = await byRun(first.find((o) => o.schedule_id === long.id)!);
    expect(longDone).toMatchObject({ status: 'finished', exit_code: 0, stdout: 'finished\n', schedule_id: long.id });

    const later = new Date(now + MIN + 1000);
    const second = (await t.app.services.schedules.runDue(later)).filter(mine);
    expect(second.map((o) => o.schedule_id).sort()).toEqual([cron.id, once.id].sort());
    expect(second.every((o) => o.ok)).toBe(true);
    expect(lines(cronLog)).toEqual(['tick']);
    expect(lines(onceLog)).toEqual(['once']);
    expect((await t.app.services.schedules.runDue(later)).filter(mine)).toHaveLength(0);

    const list = (await call('GET', '/api/schedules')).json();
    const cronNow = list.find((x: { id: number }) => x.id === cron.id);
    expect(cronNow.enabled).toBe(true);
    expect(Date.parse(cronNow.next_run)).toBeGreaterThan(later.getTime());
    expect(list.find((x: { id: number }) => x.id === once.id)).toMatchObject({ enabled: false, next_run: null });

    const third = (await t.app.services.schedules.runDue(new Date(now + 2 * MIN + 1000))).filter(mine);
    expect(third.map((o) => o.schedule_id)).toEqual([cron.id]);
    expect(lines(cronLog)).toEqual(['tick', 'tick']);
  }, 30_000);

  it('two workers on one database and one cache run each due schedule exactly once', async () => {
    const a = await makeTestApp({ db, cache: process.env.TEST_CACHE_URL ? 'redis' : 'memory' });
    const b = await makeTestApp({ shareWith: a });
    try {
      const callA = caller(() => a);
      const id = await addServer(callA, sshd, 'twice');
      const onceLog = logFile();
      const cronLog = logFile();
      await callA('POST', '/api/schedules', { name: 'once', schedule_type: 'script', server_ids: [id], fire_at: '2000-01-01T00:00:00Z', script_content: `echo x >> '${onceLog}'` });
      await callA('POST', '/api/schedules', { name: 'cron', schedule_type: 'script', server_ids: [id], run_mode: 'cron', cron_expr: '* * * * *', script_content: `echo y >> '${cronLog}'` });
      for (const at of [Date.now() + MIN + 1000, Date.now() + 2 * MIN + 1000]) {
        const now = new Date(at);
        const [ra, rb] = await Promise.all([a.app.services.schedules.runDue(now), b.app.services.schedules.runDue(now)]);
        expect(ra.length + rb.length).toBeGreaterThanOrEqual(1);
      }
      expect(lines(onceLog)).toEqual(['x']);
      expect(lines(cronLog)).toEqual(['y', 'y']);
    } finally {
      await b.close();
      await a.close();
    }
  }, 30_000);
});
