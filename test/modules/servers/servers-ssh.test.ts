import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { freePort } from '../../fixtures/sshd.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { captureLogs } from '../presets/log-capture.js';
import { keyMaterial } from '../ssh-key-presets/keygen.js';

const sshd = inject('sshd');

describe.each(dbKinds())('server connection test against a real sshd on %s', (db) => {
  let t: TestApp;
  const logs = captureLogs();
  const secrets = [sshd.password, keyMaterial(sshd.privateKey)];

  beforeAll(async () => {
    t = await makeTestApp({ db, logger: { level: 'debug', stream: logs.stream } });
  });
  afterAll(async () => t?.close());

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: await t.auth(), ...(payload === undefined ? {} : { payload: payload as object }) });
    for (const s of secrets) expect(res.body, `${method} ${url} leaked a secret`).not.toContain(s);
    return res;
  };
  const create = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/api/servers', { host: sshd.host, port: sshd.port, username: sshd.username, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; host_key_fingerprint: string | null };
  };
  const test = async (id: number) => {
    const res = await call('POST', `/api/servers/${id}/test`);
    expect(res.statusCode).toBe(200);
    return res.json() as { ok: boolean; latency_ms: number | null; error: string | null };
  };
  const fingerprint = async (id: number) => (await call('GET', `/api/servers/${id}`)).json().host_key_fingerprint;

  it('key auth: connects, and trust on first use pins the host key', async () => {
    const s = await create({ name: 'key-auth', private_key: sshd.privateKey });
    expect(s.host_key_fingerprint).toBeNull();
    const r = await test(s.id);
    expect(r).toEqual({ ok: true, latency_ms: expect.any(Number), error: null });
    // A fresh SSH handshake with a command round trip: more than nothing, less than the 10 s timeout.
    expect(r.latency_ms).toBeGreaterThan(0);
    expect(r.latency_ms).toBeLessThan(10_000);
    expect(await fingerprint(s.id)).toBe(sshd.hostKeyFingerprint);
    const audit = (await call('GET', '/api/audit?action=test_server')).json().items;
    expect(audit.some((a: { target_id: string; target_type: string }) => a.target_id === String(s.id) && a.target_type === 'server')).toBe(true);
  });

  it('password auth: inline and through a preset', async () => {
    const inline = await create({ name: 'pw-auth', password: sshd.password });
    expect(await test(inline.id)).toMatchObject({ ok: true, error: null });
    const preset = (await call('POST', '/api/presets', { name: 'sshd', encrypted_pw: sshd.password })).json();
    const viaPreset = await create({ name: 'pw-preset', password_preset_id: preset.id });
    expect(await test(viaPreset.id)).toMatchObject({ ok: true });
    const keyPreset = (await call('POST', '/api/ssh-key-presets', { name: 'sshd-key', private_key: sshd.privateKey })).json();
    const viaKeyPreset = await create({ name: 'key-preset', ssh_key_preset_id: keyPreset.id });
    expect(await test(viaKeyPreset.id)).toMatchObject({ ok: true });
  });

  it('a changed host key fails naming both fingerprints; forget-host-key re-pins on the next test', async () => {
    const s = await create({ name: 'pinned', private_key: sshd.privateKey });
    expect((await test(s.id)).ok).toBe(true);
    const wrong = `SHA256:${crypto.randomBytes(32).toString('base64').replace(/=+$/, '')}`;
    expect((await call('PUT', `/api/servers/${s.id}`, { host_key_fingerprint: wrong })).statusCode).toBe(200);

    const r = await test(s.id);
    expect(r.ok).toBe(false);
    expect(r.latency_ms).toBeNull();
    expect(r.error).toContain(wrong);
    expect(r.error).toContain(sshd.hostKeyFingerprint);
    expect(await fingerprint(s.id)).toBe(wrong);

    const forgot = await call('POST', `/api/servers/${s.id}/forget-host-key`);
    expect(forgot.statusCode).toBe(200);
    expect(forgot.json().host_key_fingerprint).toBeNull();
    const audit = (await call('GET', '/api/audit?action=forget_host_key')).json().items;
    expect(audit.some((a: { target_id: string }) => a.target_id === String(s.id))).toBe(true);

    expect((await test(s.id)).ok).toBe(true);
    expect(await fingerprint(s.id)).toBe(sshd.hostKeyFingerprint);
  });

  it('reports a closed port as refused', async () => {
    const s = await create({ name: 'closed-port', port: await freePort(), private_key: sshd.privateKey });
    const r = await test(s.id);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/refused/i);
    expect(await fingerprint(s.id)).toBeNull();
  });

  it('reports a wrong password as an authentication failure', async () => {
    const wrongPassword = `wrong-${crypto.randomBytes(6).toString('hex')}`;
    const s = await create({ name: 'wrong-pw', password: wrongPassword });
    const r = await test(s.id);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/authentication failed/i);
    expect(r.error).not.toContain(wrongPassword);
  });

  it('reports missing credentials without connecting', async () => {
    const s = await create({ name: 'no-creds' });
    const r = await test(s.id);
    expect(r).toMatchObject({ ok: false, latency_ms: null });
    expect(r.error).toMatch(/no SSH private key/);
  });

  it('never reuses a pooled connection after the credentials or address change', async () => {
    const s = await create({ name: 'rotating', password: sshd.password });
    expect((await test(s.id)).ok).toBe(true);
    expect((await test(s.id)).ok).toBe(true);
    const connects = t.app.services.ssh.stats().connectsTotal;

    await call('PUT', `/api/servers/${s.id}`, { password: 'definitely-not-it' });
    expect(await test(s.id)).toMatchObject({ ok: false, error: expect.stringMatching(/authentication failed/i) });
    await call('PUT', `/api/servers/${s.id}`, { password: sshd.password });
    expect((await test(s.id)).ok).toBe(true);

    await call('PUT', `/api/servers/${s.id}`, { port: await freePort() });
    expect(await test(s.id)).toMatchObject({ ok: false, error: expect.stringMatching(/refused/i) });
    await call('PUT', `/api/servers/${s.id}`, { port: sshd.port, auth_type: 'key', private_key: sshd.privateKey });
    expect((await test(s.id)).ok).toBe(true);
    expect(t.app.services.ssh.stats().connectsTotal).toBeGreaterThan(connects);
  });

  it('keeps names and paths with shell metacharacters away from the shell', async () => {
    const marker = `/tmp/fleet-inject-${crypto.randomBytes(6).toString('hex')}`;
    const evil = `x'; touch ${marker} #`;
    const s = await create({ name: evil, target_path: `/tmp/${evil}"; touch ${marker}; "`, private_key: sshd.privateKey });
    expect((await test(s.id)).ok).toBe(true);
    expect((await call('GET', `/api/servers/${s.id}`)).json().name).toBe(evil);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('keeps credentials out of the log', () => {
    const text = logs.text();
    expect(text).toContain('ssh connected');
    for (const s of secrets) expect(text).not.toContain(s);
  });
});
