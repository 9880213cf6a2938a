import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDf } from '../../../src/modules/remote/diagnose.service.js';
import { dbKinds } from '../../helpers/targets.js';
import { hostileNames, markerPath, remoteTestApp, type RemoteTestApp } from './remote-helpers.js';

const FIELDS = ['server_id', 'server_name', 'ssh_ok', 'disk_avail', 'disk_used_pct', 'path_exists', 'path_perms', 'path_writable', 'errors'];

describe.each(dbKinds())('POST /api/sync/diagnose on %s', (db) => {
  let r: RemoteTestApp;
  let dir: string;
  const diagnose = (body: Record<string, unknown>) => r.post('/api/sync/diagnose', { server_id: r.serverId, ...body });

  beforeAll(async () => {
    r = await remoteTestApp(db);
    dir = r.remoteDir();
  });
  afterAll(async () => r?.close());

  it('a healthy writable directory: every check passes, and the write test leaves nothing behind', async () => {
    const res = await diagnose({ target_path: dir });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([...FIELDS].sort());
    expect(body).toEqual({
      server_id: r.serverId,
      server_name: expect.any(String),
      ssh_ok: true,
      disk_avail: expect.stringMatching(/^\d+(\.\d+)?[KMGTPE]?$/),
      disk_used_pct: expect.any(Number),
      path_exists: true,
      path_perms: 'drwxr-xr-x',
      path_writable: true,
      errors: [],
    });
    expect(Number.isInteger(body.disk_used_pct)).toBe(true);
    expect(body.disk_used_pct).toBeGreaterThanOrEqual(0);
    expect(body.disk_used_pct).toBeLessThanOrEqual(100);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a missing directory: disk of the nearest ancestor, path_exists and path_writable false, with errors', async () => {
    const body = (await diagnose({ target_path: `${dir}/missing/deeper` })).json();
    expect(body).toMatchObject({ ssh_ok: true, path_exists: false, path_perms: null, path_writable: false });
    expect(body.disk_avail).not.toBeNull();
    expect(body.errors).toHaveLength(2);
    expect(body.errors[0]).toMatch(/does not exist/);
  });

  it('a directory the login user cannot write to', async () => {
    const rootOwned = r.stagingDir(); // created by root, mode 0755
    const body = (await diagnose({ target_path: rootOwned })).json();
    expect(body).toMatchObject({ ssh_ok: true, path_exists: true, path_perms: 'drwxr-xr-x', path_writable: false });
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatch(/not writable.*Permission denied/i);
  });

  it('the directory defaults to the server target_path, then /tmp/sync', async () => {
    const withTarget = await r.createServer({ name: 'with-target', target_path: dir });
    const a = (await r.post('/api/sync/diagnose', { server_id: withTarget })).json();
    expect(a).toMatchObject({ ssh_ok: true, path_exists: true, path_writable: true });
    // The body's target_path wins over the server's.
    const b = (await r.post('/api/sync/diagnose', { server_id: withTarget, target_path: `${dir}/nope` })).json();
    expect(b.path_exists).toBe(false);
    const c = await r.post('/api/sync/diagnose', { server_id: r.serverId, target_path: null });
    expect(c.statusCode).toBe(200);
    const audits = await r.audit('diagnose');
    expect(audits.some((x) => String(x.detail).includes('dir=/tmp/sync'))).toBe(true);
    expect(audits.some((x) => String(x.detail).includes(`dir=${dir} `))).toBe(true);
  });

  it('an SSH failure answers at once: ssh_ok false, one error, every other field null', async () => {
    const dead = await r.deadServer();
    const res = await r.post('/api/sync/diagnose', { server_id: dead, target_path: dir });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      server_id: dead,
      server_name: expect.any(String),
      ssh_ok: false,
      disk_avail: null,
      disk_used_pct: null,
      path_exists: null,
      path_perms: null,
      path_writable: null,
      errors: [expect.stringMatching(/refused/i)],
    });
    const noCreds = await r.createServer({ name: 'no-creds', private_key: null });
    const nc = (await r.post('/api/sync/diagnose', { server_id: noCreds })).json();
    expect(nc).toMatchObject({ ssh_ok: false, disk_avail: null, errors: [expect.stringMatching(/no SSH private key/i)] });
  });

  it('404 for a missing server, 422 without server_id, 422 for a NUL byte', async () => {
    expect((await r.post('/api/sync/diagnose', { server_id: 999_999 })).statusCode).toBe(404);
    expect((await r.post('/api/sync/diagnose', {})).statusCode).toBe(422);
    expect((await diagnose({ target_path: 'a\u0000b' })).statusCode).toBe(422);
  });

  it('hostile target paths run nothing', async () => {
    const marker = markerPath();
    for (const p of hostileNames(marker)) {
      const res = await diagnose({ target_path: p });
      expect(res.statusCode).toBe(200);
      expect(res.json().path_exists).toBe(false);
    }
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('is always audited as diagnose against the server', async () => {
    const rows = await r.audit('diagnose');
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.every((x) => x.target_type === 'server')).toBe(true);
    expect(rows.some((x) => String(x.detail).includes('ssh failed'))).toBe(true);
    // The unknown server of the 404 test too.
    expect(rows.some((x) => x.target_id === '999999' && x.detail === 'server not found')).toBe(true);
  });
});

describe('df parsing', () => {
  it('takes Avail and Use% from the data line, whatever the filesystem name', () => {
    const out = 'Filesystem      Size  Used Avail Use% Mounted on\n/dev/sda1        50G   38G   12G  77% /\n';
    expect(parseDf(out)).toEqual({ avail: '12G', usedPct: 77 });
    expect(parseDf('Filesystem Size Used Avail Use% Mounted on\nmy disk 1.0T 10G 990G 1% /mnt/a b\n')).toEqual({ avail: '990G', usedPct: 1 });
    expect(parseDf('garbage')).toBeNull();
  });
});
