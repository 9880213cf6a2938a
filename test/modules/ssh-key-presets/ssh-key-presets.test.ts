import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { captureLogs } from '../presets/log-capture.js';
import { KEY_KINDS, ed25519Pkcs8, generateKey, keyMaterial, type GeneratedKey } from './keygen.js';

const keys = Object.fromEntries(KEY_KINDS.map((k) => [k, generateKey(k)])) as Record<string, GeneratedKey>;

describe.each(dbKinds())('SSH key presets on %s', (db) => {
  let t: TestApp;
  const logs = captureLogs();

  beforeAll(async () => {
    t = await makeTestApp({ db, logger: { level: 'debug', stream: logs.stream } });
  });
  afterAll(async () => t?.close());

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: await t.auth(), ...(payload === undefined ? {} : { payload: payload as object }) });
  const listed = async (id: number) =>
    ((await call('GET', '/api/ssh-key-presets')).json() as Array<Record<string, unknown>>).find((p) => p.id === id);
  const reveal = (id: number) => call('POST', `/api/ssh-key-presets/${id}/reveal`, { current_password: ADMIN_PASSWORD });
  const auditHas = async (action: string, id: number) =>
    ((await call('GET', `/api/audit?action=${action}`)).json().items as Array<{ target_id: string }>).some(
      (a) => a.target_id === String(id),
    );

  it.each(KEY_KINDS)('accepts a %s key and derives the public key ssh-keygen -y prints', async (kind) => {
    const key = keys[kind]!;
    const res = await call('POST', '/api/ssh-key-presets', { name: `key-${kind}`, private_key: key.privateKey });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(Number), name: `key-${kind}` });
    expect(res.body).not.toContain(keyMaterial(key.privateKey));
    const id = res.json().id as number;

    const list = await call('GET', '/api/ssh-key-presets');
    expect(list.body).not.toContain(keyMaterial(key.privateKey));
    expect(list.body).not.toContain('PRIVATE KEY');
    expect(await listed(id)).toEqual({
      id,
      name: `key-${kind}`,
      username: 'root',
      public_key: key.publicKey,
      private_key_set: true,
      created_at: expect.any(String),
    });

    const shown = await reveal(id);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ id, name: `key-${kind}`, public_key: key.publicKey });
    expect(shown.json().private_key.trim()).toBe(key.privateKey.trim());
  });

  it('keeps a supplied public key and stores the private key encrypted', async () => {
    const key = keys.ed25519!;
    const given = `${key.publicKey} laptop`;
    const { id } = (await call('POST', '/api/ssh-key-presets', { name: 'given', username: 'deploy', private_key: key.privateKey, public_key: given })).json();
    expect(await listed(id)).toMatchObject({ public_key: given, username: 'deploy' });
    const stored = await t.app.services.db.selectFrom('ssh_key_presets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.private_key_enc).not.toContain(keyMaterial(key.privateKey));
    expect(await auditHas('create_ssh_key_preset', id)).toBe(true);
    // Pasted from a .pub file, with its final line break: accepted and trimmed.
    const pub = (await call('POST', '/api/ssh-key-presets', { name: 'from-file', private_key: key.privateKey, public_key: `${given}\n` }));
    expect(pub.statusCode, pub.body).toBe(201);
    expect(await listed(pub.json().id)).toMatchObject({ public_key: given });
    const twoLines = await call('POST', '/api/ssh-key-presets', { name: 'two-lines', private_key: key.privateKey, public_key: `${given}\nx` });
    expect(twoLines.statusCode).toBe(422);
  });

  it('turns a blank username into root', async () => {
    const { id } = (await call('POST', '/api/ssh-key-presets', { name: 'blank-user', username: ' ', private_key: keys.ecdsa!.privateKey })).json();
    expect((await listed(id))?.username).toBe('root');
    await call('PUT', `/api/ssh-key-presets/${id}`, { username: 'ops' });
    expect((await listed(id))?.username).toBe('ops');
    await call('PUT', `/api/ssh-key-presets/${id}`, { username: '' });
    expect((await listed(id))?.username).toBe('root');
  });

  it('rejects anything but an unencrypted RSA PEM or OpenSSH private key with 400', async () => {
    const encrypted = generateKey('ed25519', 'secret-passphrase');
    const encryptedPem = generateKey('rsa-pem', 'secret-passphrase');
    const bad: Array<[string, string]> = [
      ['garbage', 'not a key at all'],
      ['public key', keys.ed25519!.publicKey],
      ['truncated', keys.ed25519!.privateKey.slice(0, 200)],
      ['corrupted body', keys['rsa-pem']!.privateKey.replace(/\n[A-Za-z0-9+/]{20}/, '\nAAAAAAAAAAAAAAAAAAAA')],
      ['ed25519 pkcs8', ed25519Pkcs8()],
      ['encrypted openssh', encrypted.privateKey],
      ['encrypted pem', encryptedPem.privateKey],
    ];
    const before = (await call('GET', '/api/ssh-key-presets')).json().length;
    for (const [label, privateKey] of bad) {
      const res = await call('POST', '/api/ssh-key-presets', { name: label, private_key: privateKey });
      expect(res.statusCode, label).toBe(400);
      expect(res.body).not.toContain(keyMaterial(privateKey.includes('\n') ? privateKey : `x\n${privateKey}\ny`));
      const expected = label.startsWith('encrypted')
        ? /^Encrypted \(passphrase-protected\) private keys are not supported/
        : label === 'ed25519 pkcs8'
          ? /^PKCS#8 ed25519 keys are not supported; use the OpenSSH format/
          : /^Invalid private key: expected an unencrypted RSA PEM/;
      expect(res.json().detail, label).toMatch(expected);
    }
    expect((await call('GET', '/api/ssh-key-presets')).json().length).toBe(before);
  });

  it('answers 422 for schema failures', async () => {
    expect((await call('POST', '/api/ssh-key-presets', { name: 'x' })).statusCode).toBe(422);
    expect((await call('POST', '/api/ssh-key-presets', { name: 'x'.repeat(101), private_key: keys.ed25519!.privateKey })).statusCode).toBe(422);
    expect((await call('POST', '/api/ssh-key-presets', { name: 'x', private_key: 'k'.repeat(20_000) })).statusCode).toBe(422);
  });

  it('derives the public key on update when none is stored, keeps one the admin supplied', async () => {
    const { id } = (await call('POST', '/api/ssh-key-presets', { name: 'rotate', private_key: keys.ed25519!.privateKey })).json();
    // The stored public key is the old key's own: rotating the private key re-derives it.
    const rotated = await call('PUT', `/api/ssh-key-presets/${id}`, { private_key: keys.rsa!.privateKey });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json()).toEqual({ id, name: 'rotate' });
    expect(rotated.body).not.toContain(keyMaterial(keys.rsa!.privateKey));
    expect((await listed(id))?.public_key).toBe(keys.rsa!.publicKey);

    // An explicit blank public key asks for the derived one.
    await call('PUT', `/api/ssh-key-presets/${id}`, { public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEXAMPLE other' });
    await call('PUT', `/api/ssh-key-presets/${id}`, { private_key: keys.ecdsa!.privateKey });
    expect((await listed(id))?.public_key).toBe('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEXAMPLE other');
    await call('PUT', `/api/ssh-key-presets/${id}`, { public_key: '' });
    expect((await listed(id))?.public_key).toBe(keys.ecdsa!.publicKey);
    expect((await reveal(id)).json().private_key.trim()).toBe(keys.ecdsa!.privateKey.trim());

    expect((await call('PUT', `/api/ssh-key-presets/${id}`, { private_key: 'bad' })).statusCode).toBe(400);
    expect((await reveal(id)).json().private_key.trim()).toBe(keys.ecdsa!.privateKey.trim());
    expect(await auditHas('update_ssh_key_preset', id)).toBe(true);
  });

  it('reveals only with the current password and answers 404 for unknown presets', async () => {
    const { id } = (await call('POST', '/api/ssh-key-presets', { name: 'guarded', private_key: keys.ed25519!.privateKey })).json();
    const wrong = await call('POST', `/api/ssh-key-presets/${id}/reveal`, { current_password: 'nope-nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).not.toContain(keyMaterial(keys.ed25519!.privateKey));
    expect((await reveal(id)).statusCode).toBe(200);
    expect(await auditHas('reveal_ssh_key_preset', id)).toBe(true);

    const nf = { detail: 'SSH key preset not found', code: expect.any(String) };
    expect((await reveal(999999)).json()).toEqual(nf);
    expect((await call('PUT', '/api/ssh-key-presets/999999', { name: 'x' })).json()).toEqual(nf);
    expect((await call('DELETE', '/api/ssh-key-presets/999999')).statusCode).toBe(404);
    expect((await call('DELETE', `/api/ssh-key-presets/${id}`)).statusCode).toBe(204);
    expect((await reveal(id)).statusCode).toBe(404);
    expect(await auditHas('delete_ssh_key_preset', id)).toBe(true);
  });

  it('answers 500 when the stored key cannot be decrypted', async () => {
    const { id } = (await call('POST', '/api/ssh-key-presets', { name: 'other-key', private_key: keys.ed25519!.privateKey })).json();
    const other = await makeTestApp({ shareWith: t, config: { encryptionKey: crypto.randomBytes(32) } });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: `/api/ssh-key-presets/${id}/reveal`,
        headers: await other.auth(),
        payload: { current_password: ADMIN_PASSWORD },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json().detail).toMatch(/decrypt/i);
    } finally {
      await other.close();
    }
  });

  it('never logs private keys', async () => {
    const text = logs.text();
    expect(text.length).toBeGreaterThan(0);
    for (const key of Object.values(keys)) expect(text).not.toContain(keyMaterial(key.privateKey));
    expect(text).not.toContain('PRIVATE KEY');
  });
});
