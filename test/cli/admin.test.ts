/**
 * `npm run admin -- reset-password <user>`: run as a child process against the data directory
 * and database of a running app, it prints a new password that logs in, and every earlier token
 * of that admin is refused from then on.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/targets.js';
import { eventually } from '../modules/agent/agent-helpers.js';

const TSX = path.resolve('node_modules/.bin/tsx');

function runCli(t: TestApp, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const env = { PATH: process.env.PATH ?? '', DATA_DIR: t.dataDir, DATABASE_URL: t.config.databaseUrl, ADMIN_USERNAME };
  const child = spawn(TSX, ['src/cli/admin.ts', ...args], { env, stdio: 'pipe' });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

describe.each(dbKinds())('admin CLI on %s', (db) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('reset-password prints a new password that logs in; the old password and every earlier token are refused; audited', async () => {
    t = await makeTestApp({ db });
    const app = t.app;
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
    const { access_token: oldAccess, refresh_token: oldRefresh } = login.json();
    expect((await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${oldAccess}` } })).statusCode).toBe(200);

    const r = await runCli(t, ['reset-password', ADMIN_USERNAME]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const password = /New password:\s+(\S+)/.exec(r.out)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(r.out).toMatch(/^\n\+-+\+\n\| Administrator: {2}admin +\|/);

    // The request-time admin lookup trusts a row for at most a second.
    await eventually(async () => (await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${oldAccess}` } })).statusCode === 401);
    const refreshed = await app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: oldRefresh } });
    expect(refreshed.statusCode).toBe(401);
    const old = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
    expect(old.statusCode).toBe(401);
    const fresh = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password } });
    expect(fresh.statusCode).toBe(200);

    const audit = await app.services.db.selectFrom('audit_log').selectAll().where('action', '=', 'reset_password_cli').execute();
    expect(audit.map((a) => [a.admin_username, a.target_type, a.ip_address])).toEqual([['admin', 'admin', null]]);
  });

  it('an unknown user is exit code 1 with a message, and changes nothing', async () => {
    t = await makeTestApp({ db });
    const r = await runCli(t, ['reset-password', 'nobody']);
    expect(r).toEqual({ code: 1, out: '', err: 'No administrator named "nobody".\n' });
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } })).statusCode).toBe(200);
    const usage = await runCli(t, ['reset-password']);
    expect(usage).toEqual({ code: 2, out: '', err: 'usage: admin reset-password <username>\n' });
  });
});
