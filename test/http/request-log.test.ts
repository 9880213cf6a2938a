/**
 * At `info`, the log says what happened, not every request: successful requests (heartbeats,
 * polling, static files, a login) are `debug`; a client error is one `info` line; a state change
 * an operator made is one `audit` line.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLogLevel } from '../../src/http/log-options.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../helpers/app.js';
import { heartbeat, monitoredServer } from '../modules/agent/agent-helpers.js';
import { captureLogs, type LogCapture } from '../modules/presets/log-capture.js';

interface Line {
  level: number;
  msg: string;
  action?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
}

function lines(c: LogCapture): Line[] {
  return c.text().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
}

/** One person's first minutes: log in, poll, fetch the console, a heartbeat, a typo, a setting. */
async function session(t: TestApp, token: string): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  expect(res.statusCode).toBe(200);
  const auth = { authorization: `Bearer ${res.json().access_token}` };
  for (let i = 0; i < 5; i++) expect((await t.app.inject({ url: '/api/dashboard', headers: auth })).statusCode).toBe(200);
  expect((await t.app.inject({ url: '/api/servers/search?limit=10', headers: auth })).statusCode).toBe(200);
  expect((await t.app.inject({ url: '/', headers: { accept: 'text/html' } })).statusCode).toBe(200);
  expect((await t.app.inject({ url: '/assets/app-abc123.js' })).statusCode).toBe(200);
  for (let i = 0; i < 3; i++) expect((await heartbeat(t, token)).statusCode).toBe(200);
  const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: 'not-it' } });
  expect(wrong.statusCode).toBe(401);
  const put = await t.app.inject({ method: 'PUT', url: '/api/settings/system_name', headers: auth, payload: { value: 'Fleet' } });
  expect(put.statusCode).toBe(200);
}

describe('request log levels', () => {
  let dir: string;
  const apps: TestApp[] = [];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-console-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function run(level: string): Promise<Line[]> {
    const logs = captureLogs();
    const t = await makeTestApp({ consoleDir: dir, logger: { level, stream: logs.stream } });
    apps.push(t);
    const { token } = await monitoredServer(t, 'web-1');
    const before = lines(logs).length;
    await session(t, token);
    return lines(logs).slice(before);
  }

  it.each([
    [200, 'debug'],
    [304, 'debug'],
    [401, 'info'],
    [404, 'info'],
    [500, 'error'],
    [502, 'error'],
  ])('a %i answer is logged at %s', (status, level) => {
    expect(requestLogLevel(status)).toBe(level);
  });

  it('at info, a session of 14 requests is four lines: the login, the refused login (audit and request), the setting', async () => {
    const got = await run('info');
    expect(got.map((l) => [l.msg, l.action ?? l.res?.statusCode])).toEqual([
      ['audit', 'login'],
      ['audit', 'login_failed'],
      ['request completed', 401],
      ['audit', 'update_setting'],
    ]);
    expect(got.every((l) => l.level === 30)).toBe(true);
  });

  it('at debug, every request is one line (the heartbeat route keeps its own level: warnings only)', async () => {
    const got = await run('debug');
    const requests = got.filter((l) => l.msg === 'request completed').map((l) => `${l.req?.method} ${l.req?.url} ${l.res?.statusCode}`);
    expect(requests).toEqual([
      'POST /api/auth/login 200',
      ...Array(5).fill('GET /api/dashboard 200'),
      'GET /api/servers/search 200',
      'GET / 200',
      'GET /assets/app-abc123.js 200',
      'POST /api/auth/login 401',
      'PUT /api/settings/system_name 200',
    ]);
    expect(got.some((l) => l.msg === 'incoming request')).toBe(false);
  });
});
