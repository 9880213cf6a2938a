import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { offlineEnv } from '../../platform/settings/fake-http.js';
import {
  backends, createServer, eventually, getServer, heartbeat, history, monitoredServer, putSetting, rotateToken,
} from './agent-helpers.js';

const run = promisify(execFile);

function which(bin: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const p = path.join(dir, bin);
    if (dir && fs.existsSync(p)) return p;
  }
  return null;
}

describe.each(backends())('agent heartbeats on %s + %s cache', (db, cache) => {
  let t: TestApp;
  let port: number;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-agent-test-'));

  beforeAll(async () => {
    t = await makeTestApp({ db, cache, env: offlineEnv() });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const storedHash = async (id: number) =>
    (await t.app.services.db.selectFrom('servers').select('agent_token_hash').where('id', '=', id).executeTakeFirstOrThrow())
      .agent_token_hash;

  it('shows a new token once and stores only its SHA-256; 404/422 for bad server ids; audited', async () => {
    const id = await createServer(t, 'token-host');
    const res = await t.app.inject({ method: 'POST', url: `/api/servers/${id}/agent-token`, headers: await t.auth() });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ server_id: id, agent_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(await storedHash(id)).toBe(crypto.createHash('sha256').update(body.agent_token).digest('hex'));
    const view = await t.app.inject({ url: `/api/servers/${id}`, headers: await t.auth() });
    expect(view.body).not.toContain(body.agent_token);
    expect(view.body).not.toContain(await storedHash(id));

    const missing = await t.app.inject({ method: 'POST', url: '/api/servers/999999/agent-token', headers: await t.auth() });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: expect.any(String), code: 'server_not_found' });
    expect((await t.app.inject({ method: 'POST', url: '/api/servers/abc/agent-token', headers: await t.auth() })).statusCode).toBe(422);
    const audit = (await t.app.inject({ url: '/api/audit?action=rotate_agent_token', headers: await t.auth() })).json();
    expect(audit.items.some((a: { target_id: string }) => a.target_id === String(id))).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(body.agent_token);
  });

  it('accepts a heartbeat with the server token: online at once, the time written by the batch writer', async () => {
    const { id, token } = await monitoredServer(t, 'beating');
    expect(await getServer(t, id)).toMatchObject({ status: 'unknown', last_heartbeat_at: null });
    const res = await heartbeat(t, token, { load: 0.5, uptime: 1234 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const first = await getServer(t, id);
    expect(first.status).toBe('online');
    expect(Date.parse(first.last_heartbeat_at!)).toBeGreaterThan(Date.now() - 60_000);

    await new Promise((r) => setTimeout(r, 20));
    expect((await heartbeat(t, token)).statusCode).toBe(200);
    await t.app.services.agent.agent.flushHeartbeats();
    const second = await getServer(t, id);
    expect(second.status).toBe('online');
    expect(Date.parse(second.last_heartbeat_at!)).toBeGreaterThan(Date.parse(first.last_heartbeat_at!));
  });

  it('refuses a missing, malformed or wrong token with 401, whatever the body, and changes nothing', async () => {
    const { id } = await monitoredServer(t, 'guarded');
    const wrong = crypto.randomBytes(32).toString('base64url');
    for (const authorization of [undefined, 'Bearer', `Basic ${wrong}`, `Bearer ${wrong}`, 'Bearer short', `Bearer ${wrong}!`]) {
      for (const payload of [{ cpu: 99, mem: 99, disk: 99, ts: Math.floor(Date.now() / 1000) }, { cpu: 'x' }]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/agent/heartbeat',
          headers: authorization ? { authorization } : {},
          payload,
        });
        expect(res.statusCode, String(authorization)).toBe(401);
        expect(res.json()).toEqual({ detail: expect.any(String), code: 'agent_token_invalid' });
      }
    }
    // An admin access token is not an agent token either.
    const asAdmin = await t.app.inject({ method: 'POST', url: '/api/agent/heartbeat', headers: await t.auth(), payload: {} });
    expect(asAdmin.statusCode).toBe(401);
    await t.app.services.agent.agent.flushHeartbeats();
    expect(await getServer(t, id)).toMatchObject({ status: 'unknown', last_heartbeat_at: null });
    expect((await history(t, `server_id=${id}`)).total).toBe(0);
  });

  it('out-of-range or missing readings are a 422 that changes nothing', async () => {
    const { id, token } = await monitoredServer(t, 'validated');
    const ts = Math.floor(Date.now() / 1000);
    const bad = [
      { cpu: 100.1, mem: 1, disk: 1, ts },
      { cpu: 1, mem: -0.1, disk: 1, ts },
      { cpu: 1, mem: 1, disk: 101, ts },
      { cpu: 1, mem: 1, disk: 'full', ts },
      { cpu: 1, mem: 1, disk: 1 },
      { mem: 1, disk: 1, ts },
      { cpu: 1, mem: 1, disk: 1, ts: -5 },
      { cpu: 1, mem: 1, disk: 1, ts, load: -1 },
    ];
    for (const payload of bad) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/agent/heartbeat',
        headers: { authorization: `Bearer ${token}` },
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toMatchObject({ detail: expect.any(String), errors: expect.any(Array) });
    }
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/agent/heartbeat',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"cpu": 1, "mem": 1, "disk": 1e400, "ts": 1}',
    });
    expect(raw.statusCode).toBe(422);
    expect(await getServer(t, id)).toMatchObject({ status: 'unknown', last_heartbeat_at: null });
    expect((await history(t, `server_id=${id}`)).total).toBe(0);
  });

  it('a rotated token replaces the old one at once', async () => {
    const { id, token } = await monitoredServer(t, 'rotating');
    expect((await heartbeat(t, token)).statusCode).toBe(200);
    const next = await rotateToken(t, id);
    expect(next).not.toBe(token);
    expect((await heartbeat(t, token)).statusCode).toBe(401);
    expect((await heartbeat(t, next)).statusCode).toBe(200);
  });

  it('a deleted server\'s agent is refused once the batch writer notices', async () => {
    const { id, token } = await monitoredServer(t, 'doomed');
    expect((await heartbeat(t, token)).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/servers/${id}`, headers: await t.auth() });
    expect(del.statusCode).toBe(204);
    await heartbeat(t, token);
    await t.app.services.agent.agent.flushHeartbeats();
    expect((await heartbeat(t, token)).statusCode).toBe(401);
  });

  it('install.sh is public, carries no token or URL, and one `sh install.sh --once` delivers a heartbeat', async () => {
    const res = await t.app.inject({ url: '/api/agent/install.sh' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/x-shellscript/);
    expect(res.body.startsWith('#!/bin/sh\n')).toBe(true);
    expect(res.body).not.toMatch(/127\.0\.0\.1|Bearer [A-Za-z0-9_-]{20}/);
    const script = path.join(tmp, 'install.sh');
    fs.writeFileSync(script, res.body);

    const { id, token } = await monitoredServer(t, 'local-agent');
    // Thresholds of 1 % turn the agent's real readings into alert rows we can inspect.
    await putSetting(t, 'mem_alert_threshold', '1');
    await putSetting(t, 'disk_alert_threshold', '1');
    try {
      const out = await run('sh', [script, '--once', '--url', `http://127.0.0.1:${port}/`], {
        env: { ...process.env, FLEET_AGENT_TOKEN: token },
        timeout: 20_000,
      });
      expect(out.stderr).toBe('');
      expect((await getServer(t, id)).status).toBe('online');
      const items = (await history(t, `server_id=${id}`)).items;
      const byType = new Map(items.map((i) => [i.alert_type, i]));
      for (const type of ['mem', 'disk']) {
        expect(byType.get(type)?.value).toBeGreaterThan(0);
        expect(byType.get(type)?.value).toBeLessThanOrEqual(100);
      }
      // The agent's clock is this machine's: no drift alert.
      expect(byType.has('time_drift')).toBe(false);

      const refused = await run('sh', [script, '--once', '--url', `http://127.0.0.1:${port}`], {
        env: { ...process.env, FLEET_AGENT_TOKEN: crypto.randomBytes(32).toString('base64url') },
        timeout: 20_000,
      }).catch((e: { code: number; stderr: string }) => e);
      expect((refused as { code: number }).code).not.toBe(0);

      const usage = await run('sh', [script, '--once'], { timeout: 5_000 }).catch((e: { code: number }) => e);
      expect((usage as { code: number }).code).toBe(2);
    } finally {
      await putSetting(t, 'mem_alert_threshold', '90');
      await putSetting(t, 'disk_alert_threshold', '90');
    }
  });

  it.runIf(which('wget'))('the agent also posts with (GNU) wget when curl is missing', async () => {
    const script = path.join(tmp, 'install-wget.sh');
    fs.writeFileSync(script, (await t.app.inject({ url: '/api/agent/install.sh' })).body);
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    for (const tool of ['sh', 'awk', 'sed', 'head', 'tr', 'df', 'date', 'sleep', 'cat', 'wget', 'mktemp', 'rm', 'grep']) {
      const p = which(tool);
      if (p && !fs.existsSync(path.join(bin, tool))) fs.symlinkSync(p, path.join(bin, tool));
    }
    expect(fs.existsSync(path.join(bin, 'curl'))).toBe(false);
    const { id, token } = await monitoredServer(t, 'wget-agent');
    await run(path.join(bin, 'sh'), [script, '--once', '--url', `http://127.0.0.1:${port}`], {
      env: { PATH: bin, FLEET_AGENT_TOKEN: token },
      timeout: 20_000,
    });
    expect((await getServer(t, id)).status).toBe('online');
  });
});

describe.runIf(process.env.TEST_CACHE_URL)('agent tokens across workers', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await makeTestApp({ cache: 'redis', env: offlineEnv() });
    b = await makeTestApp({ shareWith: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a token rotated on one worker stops working on the other at once', async () => {
    const { id, token } = await monitoredServer(a, 'shared');
    // Worker B has the old token cached now.
    expect((await heartbeat(b, token)).statusCode).toBe(200);
    const next = await rotateToken(a, id);
    await eventually(async () => (await heartbeat(b, token)).statusCode === 401, 2_000, 10);
    expect((await heartbeat(b, next)).statusCode).toBe(200);
  });
});
