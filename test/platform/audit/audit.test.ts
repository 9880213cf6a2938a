import { sql } from 'kysely';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../../src/core/actor.js';
import { ADMIN_USERNAME, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe.each(dbKinds())('audit log on %s', (db) => {
  it('filters by action, admin and Asia/Shanghai days, newest first, with aliases', async () => {
    t = await makeTestApp({ db });
    const h = await t.auth(); // writes a `login` row
    const audit = t.app.services.audit;
    const repo = t.app.services.db;
    await audit.record({ adminId: 1, username: 'alice', ip: '10.0.0.1' }, 'file_delete', { type: 'server', id: 7, detail: 'path=/x' });
    // 2026-03-01T17:30Z is 2026-03-02 01:30 in Shanghai.
    await repo.insertInto('audit_log').values({
      admin_username: 'bob', action: 'old_action', target_type: null, target_id: null, detail: null,
      ip_address: null, created_at: '2026-03-01T17:30:00.000Z',
    }).execute();

    const all = (await t.app.inject({ url: '/api/audit', headers: h })).json();
    expect(all.total).toBe(3);
    expect(all.limit).toBe(50);
    expect(all.offset).toBe(0);
    expect(all.items[0].action).toBe('file_delete');
    expect(all.items.at(-1).action).toBe('old_action');

    const byAction = (await t.app.inject({ url: '/api/audit?action=login', headers: h })).json();
    expect(byAction.items.map((i: { admin_username: string }) => i.admin_username)).toEqual([ADMIN_USERNAME]);
    const byAdmin = (await t.app.inject({ url: '/api/audit?admin_username=alice', headers: h })).json();
    expect(byAdmin.items[0]).toMatchObject({
      action: 'file_delete', target_type: 'server', target_id: '7', resource_type: 'server', resource_id: '7',
      detail: 'path=/x', ip_address: '10.0.0.1', target_name: null,
    });

    const day = (await t.app.inject({ url: '/api/audit?date_from=2026-03-02&date_to=2026-03-02', headers: h })).json();
    expect(day.items.map((i: { action: string }) => i.action)).toEqual(['old_action']);
    const dayBefore = (await t.app.inject({ url: '/api/audit?date_to=2026-03-01', headers: h })).json();
    expect(dayBefore.total).toBe(0);
    const naive = (await t.app.inject({ url: '/api/audit?date_from=2026-03-02T01:00:00&date_to=2026-03-02T02:00:00', headers: h })).json();
    expect(naive.total).toBe(1);

    const paged = (await t.app.inject({ url: '/api/audit?limit=1&offset=1', headers: h })).json();
    expect(paged).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(paged.items).toHaveLength(1);

    for (const bad of ['2026-13-01', '2026-02-30', 'yesterday', '2026-03-02T25:00']) {
      const res = await t.app.inject({ url: `/api/audit?date_from=${encodeURIComponent(bad)}`, headers: h });
      expect(res.statusCode, bad).toBe(422);
      expect(res.json().errors[0].path).toBe('date_from');
    }
    expect((await t.app.inject({ url: '/api/audit?limit=501', headers: h })).statusCode).toBe(422);
  });

  it('names the server of server rows, and null once it is gone', async () => {
    t = await makeTestApp({ db });
    const h = await t.auth();
    const now = new Date().toISOString();
    const server = await t.app.services.db.insertInto('servers').values({
      name: 'web-1', host: '10.0.0.5', port: 22, username: 'root', auth_type: 'key', ssh_key_preset_id: null,
      password_preset_id: null, password_enc: null, private_key_enc: null, target_path: null, tags: '[]',
      host_key_fingerprint: null, last_heartbeat_at: null, agent_token_hash: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    await t.app.services.audit.record(SYSTEM_ACTOR, 'test_server', { type: 'server', id: server.id });
    await t.app.services.audit.record(SYSTEM_ACTOR, 'test_server', { type: 'server', id: 99999 });
    const items = (await t.app.inject({ url: '/api/audit?action=test_server', headers: h })).json().items;
    expect(items.map((i: { target_name: string | null }) => i.target_name)).toEqual([null, 'web-1']);
    const login = (await t.app.inject({ url: '/api/audit?action=login', headers: h })).json().items[0];
    expect(login).not.toHaveProperty('target_name');
  });

  it('a broken audit table never fails the request, and the failure is logged', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    t = await makeTestApp({ db, logger: { level: 'info', stream } });
    await sql`DROP TABLE audit_log`.execute(t.app.services.db);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: 'admin-password-1' } });
    expect(res.statusCode).toBe(200);
    expect(lines.some((l) => l.includes('audit write failed'))).toBe(true);
    expect(lines.join('\n')).not.toContain('admin-password-1');
  });
});
