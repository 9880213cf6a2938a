/**
 * SSH reachability, the second signal beside the agent: every contact with a real sshd is
 * recorded on the server (coalesced), shown in its view and counted on the dashboard; the
 * optional probe reaches servers without an agent.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SshContact } from '../../../src/adapters/ssh/types.js';
import { SshReachability } from '../../../src/modules/servers/ssh-reachability.js';
import { freePort } from '../../fixtures/sshd.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { heartbeat, rotateToken } from '../agent/agent-helpers.js';

const sshd = inject('sshd');

interface View {
  id: number;
  status: string;
  ssh_status: string;
  ssh_last_ok_at: string | null;
  ssh_last_error_at: string | null;
  ssh_last_error: string | null;
  ssh_failing_since: string | null;
}

describe('coalescing of reachability writes', () => {
  function recorder(minIntervalMs = 60_000) {
    let now = Date.parse('2026-11-26T10:00:00Z');
    const writes: string[] = [];
    const r = new SshReachability({
      repo: {
        recordSshOk: async (id, at) => void writes.push(`${id} ok ${at}`),
        recordSshFailure: async (id, at, kind) => void writes.push(`${id} ${kind} ${at}`),
      },
      log: { info() {}, warn() {}, error() {}, debug() {}, child() { return this; } },
      now: () => now,
      minIntervalMs,
    });
    const advance = (ms: number): void => {
      now += ms;
    };
    return { r, writes, advance };
  }
  const OK: SshContact = { ok: true };

  it('writes a state at once, then at most once a minute while it holds', async () => {
    const { r, writes, advance } = recorder();
    for (let i = 0; i < 500; i++) {
      r.record(7, OK);
      advance(100);
    }
    await r.flush();
    // 50 s of contacts: the first is written, the rest fall inside the minute.
    expect(writes).toEqual(['7 ok 2026-11-26T10:00:00.000Z']);
    advance(10_000);
    r.record(7, OK);
    await r.flush();
    expect(writes).toEqual(['7 ok 2026-11-26T10:00:00.000Z', '7 ok 2026-11-26T10:01:00.000Z']);
  });

  it('a flip (ok ↔ failing, or another error class) is written at once; other servers are independent', async () => {
    const { r, writes, advance } = recorder();
    r.record(1, OK);
    advance(1_000);
    r.record(1, { ok: false, kind: 'timeout' });
    r.record(2, OK);
    advance(1_000);
    r.record(1, { ok: false, kind: 'timeout' });
    r.record(1, { ok: false, kind: 'refused' });
    advance(1_000);
    r.record(1, OK);
    await r.flush();
    expect(writes).toEqual([
      '1 ok 2026-11-26T10:00:00.000Z',
      '1 timeout 2026-11-26T10:00:01.000Z',
      '2 ok 2026-11-26T10:00:01.000Z',
      '1 refused 2026-11-26T10:00:02.000Z',
      '1 ok 2026-11-26T10:00:03.000Z',
    ]);
  });
});

describe.each(dbKinds())('SSH reachability against a real sshd on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ db });
  });
  afterAll(async () => t?.close());

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: await t.auth(), ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (body: Record<string, unknown>): Promise<View> => {
    const res = await call('POST', '/api/servers', { host: sshd.host, port: sshd.port, username: sshd.username, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const view = async (id: number): Promise<View> => {
    await t.app.services.reachability.flush();
    return (await call('GET', `/api/servers/${id}`)).json();
  };
  const testConnection = async (id: number) => (await call('POST', `/api/servers/${id}/test`)).json().ok as boolean;
  const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  it('a server never contacted is "never"; a successful test makes it reachable, with the time', async () => {
    const s = await create({ name: 'reach-ok', private_key: sshd.privateKey });
    expect(s).toMatchObject({ status: 'unknown', ssh_status: 'never', ssh_last_ok_at: null, ssh_failing_since: null });
    const before = Date.now();
    expect(await testConnection(s.id)).toBe(true);
    const v = await view(s.id);
    expect(v).toMatchObject({ status: 'unknown', ssh_status: 'reachable', ssh_last_ok_at: iso, ssh_last_error: null, ssh_failing_since: null });
    expect(Date.parse(v.ssh_last_ok_at!)).toBeGreaterThanOrEqual(before - 1);
  });

  it('failures are recorded by class, the streak keeps its start, and one success ends it', async () => {
    const port = await freePort();
    const s = await create({ name: 'reach-refused', port, private_key: sshd.privateKey });
    expect(await testConnection(s.id)).toBe(false);
    const first = await view(s.id);
    expect(first).toMatchObject({ ssh_status: 'failing', ssh_last_ok_at: null, ssh_last_error: 'refused', ssh_last_error_at: iso, ssh_failing_since: iso });

    // Another class is written at once; the streak began with the first failure.
    const wrong = `wrong-${crypto.randomBytes(6).toString('hex')}`;
    expect((await call('PUT', `/api/servers/${s.id}`, { port: sshd.port, auth_type: 'password', password: wrong })).statusCode).toBe(200);
    // Moving a server forgets what was known of the old address.
    expect(await view(s.id)).toMatchObject({ ssh_status: 'never', ssh_last_error: null, ssh_failing_since: null });
    expect(await testConnection(s.id)).toBe(false);
    const auth = await view(s.id);
    expect(auth).toMatchObject({ ssh_status: 'failing', ssh_last_error: 'auth_failed', ssh_failing_since: iso });
    expect(await testConnection(s.id)).toBe(false);
    expect((await view(s.id)).ssh_failing_since).toBe(auth.ssh_failing_since);

    expect((await call('PUT', `/api/servers/${s.id}`, { password: sshd.password })).statusCode).toBe(200);
    expect(await testConnection(s.id)).toBe(true);
    expect(await view(s.id)).toMatchObject({ ssh_status: 'reachable', ssh_last_ok_at: iso, ssh_last_error: 'auth_failed', ssh_failing_since: null });
  });

  it('the dashboard counts the agent and SSH signals apart', async () => {
    const d = (await call('GET', '/api/dashboard')).json().servers;
    expect(d).toEqual({ total: 2, online: 0, offline: 0, unknown: 2, no_agent: 2, ssh: { reachable: 2, failing: 0, never: 0 } });
    const fresh = await create({ name: 'reach-never', port: await freePort(), private_key: sshd.privateKey });
    expect(await testConnection(fresh.id)).toBe(false);
    await t.app.services.reachability.flush();
    expect((await call('GET', '/api/servers/status-counts')).json()).toEqual({
      total: 3, online: 0, offline: 0, unknown: 3, no_agent: 3, ssh: { reachable: 2, failing: 1, never: 0 },
    });
    expect((await call('GET', '/api/servers/search?q=reach-never')).json().items[0]).toMatchObject({ ssh_status: 'failing', ssh_last_error: 'refused' });
  });

  it('ssh_probe_interval: 0 or 30..86400; the probe contacts servers without a recent heartbeat, and only those', async () => {
    for (const bad of ['10', '86401', '-1', 'soon']) {
      const res = await call('PUT', '/api/settings/ssh_probe_interval', { value: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().detail).toBe('Invalid value for ssh_probe_interval: must be 0 (off) or an integer between 30 and 86400');
    }
    const probe = t.app.services.sshProbe;
    const idle = await create({ name: 'probe-idle', private_key: sshd.privateKey });
    const agent = await create({ name: 'probe-agent', private_key: sshd.privateKey });
    expect((await heartbeat(t, await rotateToken(t, agent.id))).statusCode).toBe(200);

    expect((await call('PUT', '/api/settings/ssh_probe_interval', { value: '0' })).statusCode).toBe(200);
    expect(await probe.runOnce()).toBe(0);
    expect((await view(idle.id)).ssh_status).toBe('never');

    expect((await call('PUT', '/api/settings/ssh_probe_interval', { value: '300' })).statusCode).toBe(200);
    const contacted = await probe.runOnce();
    const idleView = await view(idle.id);
    expect(idleView).toMatchObject({ ssh_status: 'reachable', ssh_last_ok_at: iso });
    // A heartbeat seconds ago: the agent speaks for it.
    expect(await view(agent.id)).toMatchObject({ status: 'online', ssh_status: 'never' });
    // Servers contacted within the interval (by the tests above, successfully or not) wait for a later round.
    expect(contacted).toBe(1);
    expect(await probe.runOnce()).toBe(0);
  });
});
