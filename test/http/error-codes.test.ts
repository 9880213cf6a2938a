/**
 * Every refusal carries a code from the one catalogue, and the sharp code a client reacts to:
 * a table of real requests across the modules, each with the exact status and code it must get.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/core/error-codes.js';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/app.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Case = [Method, string, Record<string, unknown> | undefined, number, string];

const CASES: Case[] = [
  ['GET', '/api/servers/999999', undefined, 404, 'server_not_found'],
  ['DELETE', '/api/servers/999999', undefined, 404, 'server_not_found'],
  ['POST', '/api/servers', { name: ' ', host: '10.0.0.1', username: 'root', auth_type: 'password', password: 'x' }, 400, 'name_required'],
  ['POST', '/api/servers', { name: 'h', host: 'bad host!', username: 'root', auth_type: 'password', password: 'x' }, 400, 'host_invalid'],
  ['POST', '/api/servers', { name: 'k', host: '10.0.0.1', username: 'root', auth_type: 'key', private_key: 'not a key' }, 400, 'private_key_invalid'],
  ['PUT', '/api/schedules/999999', { enabled: false }, 404, 'schedule_not_found'],
  ['DELETE', '/api/schedules/999999', undefined, 404, 'schedule_not_found'],
  ['DELETE', '/api/scripts/999999', undefined, 404, 'script_not_found'],
  ['PUT', '/api/presets/999999', { name: 'x' }, 404, 'preset_not_found'],
  ['DELETE', '/api/ssh-key-presets/999999', undefined, 404, 'ssh_key_preset_not_found'],
  ['POST', '/api/retries/999999/retry', undefined, 404, 'retry_job_not_found'],
  ['DELETE', '/api/retries/999999', undefined, 404, 'retry_job_not_found'],
  ['DELETE', '/api/admins/999999', undefined, 404, 'admin_not_found'],
  ['DELETE', '/api/admins/1', undefined, 400, 'last_admin'],
  ['POST', '/api/admins', { username: 'admin', password: 'long-enough-1' }, 409, 'username_taken'],
  ['GET', '/api/sync/batches/00000000-0000-4000-8000-000000000000', undefined, 404, 'batch_not_found'],
  ['GET', '/api/settings/no_such_setting', undefined, 404, 'setting_unknown'],
  ['PUT', '/api/settings/no_such_setting', { value: 'x' }, 403, 'setting_unknown'],
  ['PUT', '/api/settings/session_max_age_days', { value: '0' }, 400, 'setting_invalid_value'],
  ['POST', '/api/settings/messenger/test', {}, 400, 'messenger_not_configured'],
  ['POST', '/api/auth/change-password', { current_password: 'not-the-password', new_password: 'another-password-1' }, 400, 'wrong_password'],
  ['POST', '/api/settings/ip-allowlist/manual', { ips: ['not an address!'] }, 400, 'allowlist_entry_invalid'],
  ['POST', '/api/auth/totp/enable', { code: '123456', current_password: ADMIN_PASSWORD }, 400, 'totp_not_set_up'],
  ['POST', '/api/sync/browse-local', { path: '/tmp/svc_upload_no_such_dir_x' }, 404, 'path_not_found'],
  ['POST', '/api/sync/browse-local', { path: '/etc' }, 403, 'path_outside_staging'],
  ['POST', '/api/sync/local-file-ops', { path: '/tmp/svc_upload_none', operation: 'chmod' }, 400, 'operation_invalid'],
  ['POST', '/api/sync/validate-source-path', { path: '/tmp/../etc' }, 400, 'path_invalid'],
  ['POST', '/api/sync/upload-zip', undefined, 400, 'not_multipart'],
  ['GET', '/api/definitely-not-here', undefined, 404, 'route_not_found'],
  ['POST', '/api/servers', { name: 1 }, 422, 'validation_failed'],
];

describe('error codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(CASES)('%s %s answers %#: the exact code', async (method, url, payload, status, code) => {
    const res = await t.app.inject({ method, url, headers: await t.auth(), ...(payload ? { payload } : {}) });
    expect(res.json(), `${method} ${url}`).toMatchObject({ detail: expect.any(String), code });
    expect(res.statusCode, `${method} ${url}`).toBe(status);
  });

  it('every expected code is in the catalogue, and the catalogue is published at /docs', async () => {
    for (const c of CASES) expect(Object.hasOwn(ERROR_CODES, c[4]), c[4]).toBe(true);
    const doc = (await t.app.inject({ url: '/docs/json' })).json() as { info: { description: string } };
    for (const code of Object.keys(ERROR_CODES)) expect(doc.info.description).toContain(`\`${code}\``);
  });

  it('a wrong password on sign-in, a bad token and a wrong API key each have their own code', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: `${ADMIN_PASSWORD}x` } });
    expect(login.json()).toMatchObject({ code: 'invalid_credentials' });
    expect((await t.app.inject({ url: '/api/servers', headers: { authorization: 'Bearer x' } })).json()).toMatchObject({ code: 'token_invalid' });
    expect((await t.app.inject({ url: '/api/servers', headers: { 'x-api-key': 'wrong' } })).json()).toMatchObject({ code: 'api_key_invalid' });
    expect((await t.app.inject({ url: '/api/servers' })).json()).toMatchObject({ code: 'unauthorized' });
  });
});
