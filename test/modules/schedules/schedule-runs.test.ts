/**
 * Each firing of a schedule is recorded (schedule_runs): `GET /api/schedules/{id}/runs` pages them
 * newest first, and the list carries each schedule's `last_result`. A push names its batch and
 * counts, a script its run id and counts, a run that could not start its error.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { nextCronRuns } from '../../../src/modules/schedules/cron-rules.js';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { addServer, appFor, caller, remoteDir, rmrf, stagingDir } from '../push/push-helpers.js';

const sshd = inject('sshd');

describe.each(dbKinds())('schedule runs on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  let src: string;
  let serverId: number;
  const cleanup: string[] = [];

  beforeAll(async () => {
    t = await appFor(db);
    src = stagingDir({ 'a.txt': 'run\n' });
    serverId = await addServer(call, sshd, 'runs');
    cleanup.push(src);
  });
  afterAll(async () => {
    await t?.close();
    rmrf(...cleanup);
  });

  const create = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/api/schedules', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const past = '2000-01-01T00:00:00Z';
  const fire = async (id: number, now = new Date()) => (await t.app.services.schedules.runDue(now)).filter((o) => o.schedule_id === id);
  const runs = (id: number, q = '') => call('GET', `/api/schedules/${id}/runs${q}`);

  it('a fired push schedule records its batch and counts; the list shows it as last_result', async () => {
    const dest = remoteDir(sshd, 'runs');
    cleanup.push(dest);
    const s = await create({ name: 'push once', source_path: src, target_path: dest, server_ids: [serverId], fire_at: past });
    expect(s.last_result).toBeNull();
    expect((await runs(s.id)).json()).toEqual({ items: [], total: 0, page: 1, per_page: 20 });
    const [out] = await fire(s.id);
    expect(out).toMatchObject({ ok: true, batch_status: 'completed' });
    const page = (await runs(s.id)).json();
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      schedule_id: s.id, schedule_type: 'push', slot: '2000-01-01T00:00:00.000Z', status: 'completed', batch_id: out.batch_id,
      run_id: null, total: 1, succeeded: 1, failed: 0, error: null,
    });
    expect(Date.parse(page.items[0].finished_at)).toBeGreaterThanOrEqual(Date.parse(page.items[0].started_at));
    const listed = (await call('GET', '/api/schedules')).json().find((x: { id: number }) => x.id === s.id);
    expect(listed.last_result).toEqual(page.items[0]);
  });

  it('script runs record counts; a run that cannot start records its error; pages are newest first', async () => {
    const s = await create({ name: 'every minute', schedule_type: 'script', server_ids: [serverId, 999_999], run_mode: 'cron', cron_expr: '* * * * *', script_content: 'true' });
    const base = Date.now();
    for (let i = 1; i <= 3; i++) {
      const [o] = await fire(s.id, new Date(base + i * 60_000 + 1000));
      expect(o).toMatchObject({ ok: true, run_id: expect.any(String) });
    }
    const first = (await runs(s.id, '?per_page=2')).json();
    expect(first).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.items[0].id).toBeGreaterThan(first.items[1].id);
    // One real server succeeded, the unknown id failed: partial.
    expect(first.items[0]).toMatchObject({ schedule_type: 'script', status: 'partial', total: 2, succeeded: 1, failed: 1, batch_id: null });
    const second = (await runs(s.id, '?per_page=2&page=2')).json();
    expect(second.items).toHaveLength(1);
    expect(second.items[0].id).toBeLessThan(first.items[1].id);

    const script = (await call('POST', '/api/scripts', { name: 'gone soon', content: 'true' })).json();
    const broken = await create({ name: 'broken', schedule_type: 'script', server_ids: [serverId], fire_at: past, script_id: script.id });
    expect((await call('DELETE', `/api/scripts/${script.id}`)).statusCode).toBe(204);
    const [o] = await fire(broken.id);
    expect(o.ok).toBe(false);
    const failed = (await runs(broken.id)).json().items[0];
    expect(failed).toMatchObject({ status: 'failed', run_id: null, total: 0 });
    expect(failed.error).toEqual(expect.any(String));
    expect(failed.finished_at).toEqual(expect.any(String));
  }, 30_000);

  it('runs of a missing schedule are a 404; bad paging is a 422; deleting a schedule deletes its runs', async () => {
    const missing = await runs(999_999);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Schedule not found', code: 'schedule_not_found' });
    const s = await create({ name: 'to delete', schedule_type: 'script', server_ids: [serverId], fire_at: past, script_content: 'true' });
    for (const q of ['?per_page=0', '?per_page=201', '?page=0', '?page=x']) {
      const res = await runs(s.id, q);
      expect(res.statusCode, q).toBe(422);
      expect(res.json().code).toEqual(expect.any(String));
    }
    await fire(s.id);
    expect((await runs(s.id)).json().total).toBe(1);
    expect((await call('DELETE', `/api/schedules/${s.id}`)).statusCode).toBe(204);
    const left = await t.app.services.db.selectFrom('schedule_runs').select('id').where('schedule_id', '=', s.id).execute();
    expect(left).toEqual([]);
  }, 30_000);

  it("next_run is the shared cron rules' first match for a table of expressions", async () => {
    for (const expr of ['0 9 * * *', '*/7 * * * *', '30 2 1 * *', '0 0 * * 1-5', '15 14 29 2 *', '0 */6 * * 0,6']) {
      const before = new Date();
      const s = await create({ name: `cron ${expr}`, source_path: src, server_ids: [serverId], run_mode: 'cron', cron_expr: expr, enabled: true });
      // created_at is "now" on the service: its next match is the shared function's first match after it.
      expect([nextCronRuns(expr, 1, before)[0], nextCronRuns(expr, 1, new Date(s.created_at))[0]]).toContain(s.next_run);
      expect((await call('PUT', `/api/schedules/${s.id}`, { enabled: false })).statusCode).toBe(200);
    }
  });
});
