/**
 * The generated first password on the host: framed on the print sink, kept in
 * DATA_DIR/initial-admin-password (0600) and named by GET /api/auth/first-run until that
 * administrator logs in or changes it. Another admin's login leaves it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, makeTestApp, type TestApp } from '../../helpers/app.js';

describe('first run', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function fresh(): Promise<{ password: string; file: string; printed: string }> {
    let printed = '';
    t = await makeTestApp({ config: { adminPassword: null }, print: (text) => {
      printed += text;
    } });
    const password = /\| Generated password: {2}(\S+) +\|/.exec(printed)?.[1] ?? '';
    return { password, file: path.join(t.dataDir, 'initial-admin-password'), printed };
  }
  const firstRun = async () => (await t!.app.inject({ url: '/api/auth/first-run' })).json();
  const login = (username: string, password: string) =>
    t!.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

  it('prints a framed block naming the file, keeps the password there (0600) and names the path publicly', async () => {
    const { password, file, printed } = await fresh();
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(printed.split('\n').filter((l) => l.startsWith('+'))).toHaveLength(2);
    expect(printed).toContain(`| Also kept in ${file}`);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${password}\n`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Public, and nothing but the path.
    expect(await firstRun()).toEqual({ initial_password_file: file });
  });

  it('another admin logging in leaves it; changing the password removes it', async () => {
    const { password, file } = await fresh();
    const first = await login(ADMIN_USERNAME, password);
    expect(first.statusCode).toBe(200);
    // The first login already removed it: write it back to see what a password change does.
    expect(fs.existsSync(file)).toBe(false);
    fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
    const h = { authorization: `Bearer ${first.json().access_token}` };
    expect((await t!.app.inject({ method: 'POST', url: '/api/admins', headers: h, payload: { username: 'ops', password: 'ops-password-1' } })).statusCode).toBe(201);
    expect((await login('ops', 'ops-password-1')).statusCode).toBe(200);
    expect(fs.existsSync(file)).toBe(true);
    const changed = await t!.app.inject({
      method: 'POST', url: '/api/auth/change-password', headers: h, payload: { current_password: password, new_password: 'a-new-password-1' },
    });
    expect(changed.statusCode).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    expect(await firstRun()).toEqual({ initial_password_file: null });
  });

  it('a password given in the environment is neither printed nor kept', async () => {
    let printed = '';
    t = await makeTestApp({ print: (text) => {
      printed += text;
    } });
    expect(printed).toBe('');
    expect(fs.existsSync(path.join(t.dataDir, 'initial-admin-password'))).toBe(false);
    expect(await firstRun()).toEqual({ initial_password_file: null });
  });
});
