import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullPushForbidden, protectedTarget, pseudoFsTarget } from '../../../src/core/protected-paths.js';
import { stripTrailingSlash } from '../../../src/modules/remote/remote-paths.js';
import { dbKinds } from '../../helpers/targets.js';
import { hostileNames, markerPath, remoteTestApp, writeRemote, type RemoteTestApp } from './remote-helpers.js';

describe.each(dbKinds())('POST /api/sync/file-ops on %s', (db) => {
  let r: RemoteTestApp;
  let dir: string;
  const op = (body: Record<string, unknown>) => r.post('/api/sync/file-ops', { server_id: r.serverId, ...body });

  beforeAll(async () => {
    r = await remoteTestApp(db);
    dir = r.remoteDir();
  });
  afterAll(async () => r?.close());

  it('mkdir creates parents; the trailing slash is stripped in the answer', async () => {
    const res = await op({ operation: 'mkdir', path: `${dir}/a/b/c/` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, operation: 'mkdir', path: `${dir}/a/b/c` });
    expect(fs.statSync(`${dir}/a/b/c`).isDirectory()).toBe(true);
  });

  it('rename moves a file; delete removes a tree recursively', async () => {
    writeRemote(`${dir}/r/file.txt`, 'x');
    const ren = await op({ operation: 'rename', path: `${dir}/r/file.txt`, new_path: `${dir}/r/moved.txt/` });
    expect(ren.statusCode, ren.body).toBe(200);
    expect(ren.json()).toEqual({ success: true, operation: 'rename', path: `${dir}/r/file.txt` });
    expect(fs.existsSync(`${dir}/r/moved.txt`)).toBe(true);
    expect(fs.existsSync(`${dir}/r/file.txt`)).toBe(false);

    writeRemote(`${dir}/tree/x/y/z.txt`, 'x');
    const del = await op({ operation: 'delete', path: `${dir}/tree/` });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ success: true, operation: 'delete', path: `${dir}/tree` });
    expect(fs.existsSync(`${dir}/tree`)).toBe(false);
  });

  it('a failing remote command is a 400 carrying stderr (at most 300 chars)', async () => {
    const res = await op({ operation: 'rename', path: `${dir}/nope`, new_path: `${dir}/nope2` });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/No such file or directory/);
    expect(res.json().detail.length).toBeLessThanOrEqual(300);
    const long = `${dir}/${'n'.repeat(250)}/${'m'.repeat(250)}`;
    const res2 = await op({ operation: 'rename', path: long, new_path: `${dir}/x` });
    expect(res2.statusCode).toBe(400);
    expect(res2.json().detail.length).toBe(300);
    // The root-owned sshd home's parent is not writable for the login user.
    const denied = await op({ operation: 'mkdir', path: '/root/fleet-nope' });
    expect(denied.statusCode).toBe(400);
    expect(denied.json().detail).toMatch(/Permission denied/);
  });

  it('400 for an unknown operation and for rename without new_path; 404 for a missing server; 422 for a bad body', async () => {
    const bad = await op({ operation: 'chmod', path: `${dir}/a` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/operation/i);
    for (const new_path of [undefined, null, '']) {
      const res = await op({ operation: 'rename', path: `${dir}/a`, new_path });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/new_path/);
    }
    const missing = await r.post('/api/sync/file-ops', { server_id: 999_999, operation: 'mkdir', path: `${dir}/q` });
    expect(missing.statusCode).toBe(404);
    expect(fs.existsSync(`${dir}/q`)).toBe(false);
    expect((await r.post('/api/sync/file-ops', { operation: 'mkdir', path: '/x' })).statusCode).toBe(422);
    expect((await op({ operation: 'mkdir', path: 'a\u0000b' })).statusCode).toBe(422);
  });

  it('refuses to delete or rename / and top-level system directories', async () => {
    for (const p of ['/', '', '//', '/etc', '/etc/', '/usr/../etc', '/tmp', '/home/', '/var', '.', '..', '../..']) {
      const res = await op({ operation: 'delete', path: p });
      expect(res.statusCode, p).toBe(400);
      expect(res.json().detail).toMatch(/Refusing/);
    }
    expect((await op({ operation: 'rename', path: '/usr', new_path: '/usr2' })).statusCode).toBe(400);
    // Below them is everyday work.
    writeRemote('/tmp/fleet-file-ops-ok.txt', 'x');
    expect((await op({ operation: 'delete', path: '/tmp/fleet-file-ops-ok.txt' })).statusCode).toBe(200);
    expect(fs.existsSync('/tmp/fleet-file-ops-ok.txt')).toBe(false);
  });

  it('refuses delete, rename and mkdir anywhere in /proc, /sys and /dev (by name, after normalising)', async () => {
    writeRemote('/tmp/fleet-file-ops-procfs.txt', 'x');
    const refused: Array<Record<string, unknown>> = [
      { operation: 'delete', path: '/proc/self/root/tmp/fleet-file-ops-procfs.txt' },
      { operation: 'delete', path: '/proc/1/root/etc' },
      { operation: 'delete', path: '/sys/fs/cgroup/x' },
      { operation: 'delete', path: '/dev/shm/x' },
      { operation: 'delete', path: '//tmp/../proc/./self/cwd' },
      { operation: 'delete', path: '../../proc/self/root/tmp/fleet-file-ops-procfs.txt' },
      { operation: 'rename', path: '/proc/self/root/tmp/fleet-file-ops-procfs.txt', new_path: '/tmp/y' },
      { operation: 'rename', path: '/tmp/fleet-file-ops-procfs.txt', new_path: '/proc/self/root/tmp/z' },
      { operation: 'mkdir', path: '/dev/shm/fleet-file-ops-dir' },
      { operation: 'mkdir', path: '/sys/x' },
    ];
    for (const body of refused) {
      const res = await op(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code, JSON.stringify(body)).toBe('protected_path');
      expect(res.json().detail).toMatch(/^Refusing to /);
    }
    expect(fs.readFileSync('/tmp/fleet-file-ops-procfs.txt', 'utf8')).toBe('x');
    expect(fs.existsSync('/dev/shm/fleet-file-ops-dir')).toBe(false);
    expect((await r.audit('file_delete')).some((a) => String(a.detail).includes('/proc'))).toBe(false);
    // A name that merely starts like one is not below it.
    expect((await op({ operation: 'delete', path: '/tmp/fleet-file-ops-procfs.txt' })).statusCode).toBe(200);
    expect((await op({ operation: 'mkdir', path: `${dir}/proc/sys` })).statusCode).toBe(200);
  });

  it('an unreachable server is a 400 with the connection error', async () => {
    const dead = await r.deadServer();
    const res = await r.post('/api/sync/file-ops', { server_id: dead, operation: 'mkdir', path: '/tmp/x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/refused/i);
  });

  it('hostile names are created, renamed and deleted literally and never run', async () => {
    const marker = markerPath();
    for (const name of hostileNames(marker)) {
      const p = path.join(dir, 'hostile', name);
      expect((await op({ operation: 'mkdir', path: p })).statusCode).toBe(200);
      expect(fs.statSync(p).isDirectory()).toBe(true);
      const renamed = `${p}-renamed`;
      expect((await op({ operation: 'rename', path: p, new_path: renamed })).statusCode).toBe(200);
      expect(fs.existsSync(renamed)).toBe(true);
      expect((await op({ operation: 'delete', path: renamed })).statusCode).toBe(200);
      expect(fs.existsSync(renamed)).toBe(false);
    }
    // A leading dash is an operand, not an option (`--` precedes every path).
    writeRemote(path.join(dir, 'dash', 'keep.txt'), 'x');
    const res = await op({ operation: 'mkdir', path: '-p' });
    expect(res.statusCode).toBe(200);
    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'dash', 'keep.txt'))).toBe(true);
    await op({ operation: 'delete', path: '-p' });
  });

  it('audits file_delete, file_rename and file_mkdir against the server', async () => {
    for (const action of ['file_delete', 'file_rename', 'file_mkdir']) {
      const rows = await r.audit(action);
      expect(rows.length, action).toBeGreaterThan(0);
      expect(rows[0]).toMatchObject({ target_type: 'server', target_id: String(r.serverId), admin_username: 'admin' });
    }
  });
});

describe('remote path rules', () => {
  it('strips trailing slashes; empty becomes /', () => {
    expect(stripTrailingSlash('/a/b/')).toBe('/a/b');
    expect(stripTrailingSlash('/a//')).toBe('/a');
    expect(stripTrailingSlash('/')).toBe('/');
    expect(stripTrailingSlash('')).toBe('/');
  });

  it('names protected directories only when the path IS one', () => {
    expect(protectedTarget('/etc')).toBe('/etc');
    expect(protectedTarget('/etc/../usr/')).toBe('/usr');
    expect(protectedTarget('/etc/nginx')).toBeNull();
    expect(protectedTarget('data')).toBeNull();
    expect(protectedTarget('..foo')).toBeNull();
    expect(protectedTarget('../..')).toBe('../..');
    // A climb out of the login directory may reach `/`: judged as if it did.
    expect(protectedTarget('../../etc')).toBe('/etc');
    expect(protectedTarget('../srv/app')).toBeNull();
  });

  it('names the pseudo-filesystem a path is in, after normalising', () => {
    expect(pseudoFsTarget('/proc/self/root/etc')).toBe('/proc');
    expect(pseudoFsTarget('/proc')).toBe('/proc');
    expect(pseudoFsTarget('/sys/')).toBe('/sys');
    expect(pseudoFsTarget('/dev//shm')).toBe('/dev');
    expect(pseudoFsTarget('/tmp/../proc')).toBe('/proc');
    expect(pseudoFsTarget('../../../dev/sda')).toBe('/dev');
    expect(pseudoFsTarget('/process')).toBeNull();
    expect(pseudoFsTarget('/srv/proc')).toBeNull();
    expect(pseudoFsTarget('proc/self')).toBeNull();
    expect(fullPushForbidden('/proc/self/root/srv/app')).toBe('/proc');
    expect(fullPushForbidden('/srv/app')).toBeNull();
  });
});
