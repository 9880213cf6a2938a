/**
 * install-agent against the suite's real sshd (a plain user on this machine, which has neither a
 * running systemd nor cron, so the agent runs detached). The installed agent posts to the test
 * app on 127.0.0.1, which proves the whole path: SSH, token file, script, heartbeat.
 */
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv } from '../../platform/settings/fake-http.js';
import { createServer, eventually, getServer, heartbeat, putSetting, rotateToken } from './agent-helpers.js';

const sshd = inject('sshd');

describe.each(dbKinds())('install-agent over SSH on %s', (db) => {
  let t: TestApp;
  let port: number;
  let id: number;

  beforeAll(async () => {
    t = await makeTestApp({ db, env: offlineEnv() });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
    id = await createServer(t, 'sshd-agent', {
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      private_key: sshd.privateKey,
    });
  });
  afterAll(async () => t?.close());

  const remote = async (script: string) => {
    const c = t.app.services;
    return c.ssh.exec(await c.servers.connectionFor(id), script, { timeoutMs: 10_000 });
  };
  // Stop the detached agent by its pid and remove its files (it also exits once its token file is gone).
  afterEach(async () => {
    await remote('d="$HOME/.fleet-agent"; [ -f "$d/agent.pid" ] && kill "$(cat "$d/agent.pid")" 2>/dev/null; rm -rf "$d"; true');
  });

  const install = async (serverId: number, payload?: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/servers/${serverId}/install-agent`,
      headers: await t.auth(),
      ...(payload ? { payload } : {}),
    });
  const storedHash = async (serverId: number) =>
    (await t.app.services.db.selectFrom('servers').select('agent_token_hash').where('id', '=', serverId).executeTakeFirstOrThrow())
      .agent_token_hash;

  it('refuses bad requests with a clear 4xx and changes nothing', async () => {
    const token = await rotateToken(t, id);
    const before = await storedHash(id);
    const noUrl = await install(id);
    expect(noUrl.statusCode).toBe(400);
    expect(noUrl.json().detail).toMatch(/api_base_url/);
    for (const api_base_url of ['ftp://x', 'http://a b', 'http://user:pw@host', 'http://host/x?y=1', 'http://host/%41']) {
      const res = await install(id, { api_base_url });
      expect(res.statusCode, api_base_url).toBe(400);
    }
    expect((await install(999_999, { api_base_url: 'http://127.0.0.1' })).statusCode).toBe(404);
    // A body is validated without coercion: a number or an object where text belongs is a 422.
    expect((await install(id, { api_base_url: 42 })).statusCode).toBe(422);
    expect((await install(id, { api_base_url: { url: 'http://x' } })).statusCode).toBe(422);
    expect(await storedHash(id)).toBe(before);
    expect((await heartbeat(t, token)).statusCode).toBe(200);
  });

  it('installs the agent, which starts posting; the token sits in a 0600 file and on no command line', async () => {
    await putSetting(t, 'api_base_url', `http://127.0.0.1:${port}/api`);
    const started = Date.now();
    const res = await install(id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      server_id: id,
      method: expect.stringMatching(/^(systemd|cron|background)$/),
      api_base_url: `http://127.0.0.1:${port}`,
    });
    expect(body.install_dir).toMatch(/\.fleet-agent$/);

    // Only the installed agent knows the new token: a heartbeat after the install is its own.
    await eventually(async () => {
      await t.app.services.agent.agent.flushHeartbeats();
      const s = await getServer(t, id);
      return s.status === 'online' && Date.parse(s.last_heartbeat_at ?? '') >= started;
    }, 15_000, 100);

    const files = await remote('d="$HOME/.fleet-agent"; stat -c "%a %n" "$d" "$d/token" "$d/agent.sh"; cat "$d/token"');
    expect(files.exitCode).toBe(0);
    const lines = files.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^700 /);
    expect(lines[1]).toMatch(/^600 .*\/token$/);
    const token = lines[3];
    expect(await storedHash(id)).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    const ps = await remote('ps -eo args');
    expect(ps.stdout).toContain('agent.sh');
    expect(ps.stdout).not.toContain(token);

    const audit = (await t.app.inject({ url: '/api/audit?action=install_agent', headers: await t.auth() })).json();
    expect(audit.items[0]).toMatchObject({ target_type: 'server', target_id: String(id) });
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('a failed installation keeps the previous token working', async () => {
    const broken = await createServer(t, `broken-${db}`, {
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      password: 'definitely-not-the-password',
    });
    const token = await rotateToken(t, broken);
    const res = await install(broken, { api_base_url: `http://127.0.0.1:${port}` });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'ssh_auth_failed' });
    expect((await heartbeat(t, token)).statusCode).toBe(200);
  });
});
