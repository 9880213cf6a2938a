import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGnuListing, parsePortableListing, portableListingScript, sortEntries } from '../../../src/modules/remote/browse.service.js';
import { dbKinds } from '../../helpers/targets.js';
import { markerPath, remoteTestApp, remoteUser, writeRemote, type RemoteTestApp } from './remote-helpers.js';

const MODIFIED = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2} (\d\d:\d\d|\d{4})$/;

describe.each(dbKinds())('POST /api/sync/browse on %s', (db) => {
  let r: RemoteTestApp;
  let dir: string;
  const awkward = ['with space', 'ünïcødé 文件', '-leading-dash', 'new\nline', '.hidden', "quote'd", '$(touch x)', 'B-upper', 'a-lower'];

  beforeAll(async () => {
    r = await remoteTestApp(db);
    dir = r.remoteDir();
    for (const name of awkward) writeRemote(path.join(dir, name), `content of ${name}`);
    fs.mkdirSync(path.join(dir, 'zdir'));
    fs.mkdirSync(path.join(dir, 'Adir'));
    const { uid, gid } = remoteUser();
    fs.chownSync(path.join(dir, 'zdir'), uid, gid);
    writeRemote(path.join(dir, 'old'), 'x');
    fs.utimesSync(path.join(dir, 'old'), new Date('2020-03-03T12:00:00Z'), new Date('2020-03-03T12:00:00Z'));
  });
  afterAll(async () => r?.close());

  it('lists every entry whole, hidden ones included, directories first then by name', async () => {
    const res = await r.post('/api/sync/browse', { server_id: r.serverId, path: dir });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.path).toBe(dir);
    expect(body.error).toBeUndefined();
    const names = body.entries.map((e: { name: string }) => e.name);
    expect(names).not.toContain('.');
    expect(names).not.toContain('..');
    expect(names.slice(0, 2)).toEqual(['Adir', 'zdir']);
    expect(new Set(names)).toEqual(new Set([...awkward, 'zdir', 'Adir', 'old']));
    const files = names.slice(2);
    expect(files).toEqual([...files].sort((a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
  });

  it('gives the ls -l columns: size as a string, symbolic perms, owner, three date tokens', async () => {
    const body = (await r.post('/api/sync/browse', { server_id: r.serverId, path: `${dir}/` })).json();
    const byName = new Map(body.entries.map((e: { name: string }) => [e.name, e]));
    const file = byName.get('with space') as Record<string, unknown>;
    expect(file).toEqual({
      name: 'with space',
      is_dir: false,
      size: String('content of with space'.length),
      perms: '-rw-r--r--',
      owner: 'fleettest',
      modified: expect.stringMatching(MODIFIED),
    });
    expect((file.modified as string).split(' ')[2]).toMatch(/^\d\d:\d\d$/);
    const sub = byName.get('zdir') as Record<string, unknown>;
    expect(sub).toMatchObject({ is_dir: true, perms: 'drwxr-xr-x', owner: 'fleettest' });
    expect(sub.size).toMatch(/^\d+$/);
    expect(byName.get('Adir')).toMatchObject({ is_dir: true, owner: 'root' });
    // Older than six months: the year replaces the time, as ls -l shows it.
    expect((byName.get('old') as { modified: string }).modified).toMatch(/^Mar 3 2020$/);
    expect(byName.get('new\nline')).toMatchObject({ name: 'new\nline', size: String('content of new\nline'.length) });
  });

  it('a remote failure is 200 with empty entries and the stderr text', async () => {
    const res = await r.post('/api/sync/browse', { server_id: r.serverId, path: `${dir}/does-not-exist` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ path: `${dir}/does-not-exist`, entries: [], error: expect.stringMatching(/does-not-exist/) });
    expect(body.error.length).toBeLessThanOrEqual(500);
    const notDir = await r.post('/api/sync/browse', { server_id: r.serverId, path: `${dir}/old` });
    expect(notDir.json()).toMatchObject({ entries: [], error: expect.stringMatching(/Not a directory/i) });
  });

  it('an unreachable server is 200 with an error too', async () => {
    const dead = await r.deadServer();
    const res = await r.post('/api/sync/browse', { server_id: dead, path: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ path: '/', entries: [], error: expect.stringMatching(/refused/i) });
    const bare = await r.createServer({ name: `no-creds-browse-${Date.now()}`, private_key: undefined });
    const noCreds = await r.post('/api/sync/browse', { server_id: bare, path: '/' });
    expect(noCreds.statusCode).toBe(200);
    expect(noCreds.json()).toMatchObject({ entries: [], error: expect.stringMatching(/SSH connection failed/) });
  });

  it('400 when server_id is missing, 0 or null; 404 when the server does not exist', async () => {
    for (const payload of [{ path: '/' }, { server_id: 0, path: '/' }, { server_id: null, path: '/' }]) {
      const res = await r.post('/api/sync/browse', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().detail).toMatch(/server_id/);
    }
    const res = await r.post('/api/sync/browse', { server_id: 999_999, path: '/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Server not found', code: 'server_not_found' });
    expect((await r.post('/api/sync/browse', { server_id: 'abc', path: '/' })).statusCode).toBe(422);
  });

  it('hostile paths run nothing; a NUL byte is a 422', async () => {
    const marker = markerPath();
    for (const p of [`'; touch ${marker} #`, `$(touch ${marker})`, `\`touch ${marker}\``, `x\ntouch ${marker}`, `-la; touch ${marker}`]) {
      const res = await r.post('/api/sync/browse', { server_id: r.serverId, path: p });
      expect(res.statusCode).toBe(200);
      expect(res.json().entries).toEqual([]);
    }
    expect(fs.existsSync(marker)).toBe(false);
    expect((await r.post('/api/sync/browse', { server_id: r.serverId, path: 'a\u0000b' })).statusCode).toBe(422);
  });

  it('the portable (stat) listing gives the same entries as the find one', async () => {
    const svc = (await import('../../../src/modules/remote/browse.service.js')).BrowseService;
    const c = r.t.app.services;
    const browse = new svc({ servers: c.servers, ssh: c.ssh, audit: c.audit, staging: c.staging });
    const target = await c.servers.connectionFor(r.serverId);
    const gnu = await browse.list(target, dir);
    const portable = await browse.list(target, dir, true);
    expect(portable).toEqual(gnu);
    expect(portableListingScript(dir)).toContain("stat -c");
  });

  it('is audited as browse_directory against the server', async () => {
    const rows = await r.audit('browse_directory');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ target_type: 'server', admin_username: 'admin' });
    expect(rows.some((a) => a.target_id === String(r.serverId))).toBe(true);
  });
});

describe('listing parsers', () => {
  const now = Date.parse('2026-11-22T18:15:00Z') / 1000;

  it('parses NUL-separated find output and rebuilds ls dates', () => {
    const recent = now - 3600;
    const out = ['-rw-r--r--', '12', 'bob', '2026 11 22 17:15', String(recent), 'a\nb', 'drwx------', '4096', 'root', '2025 03 03 09:00', '1741000000', '-x', ''].join('\0');
    expect(parseGnuListing(out, now)).toEqual([
      { name: 'a\nb', is_dir: false, size: '12', perms: '-rw-r--r--', owner: 'bob', modified: 'Nov 22 17:15' },
      { name: '-x', is_dir: true, size: '4096', perms: 'drwx------', owner: 'root', modified: 'Mar 3 2025' },
    ]);
    expect(parseGnuListing('a\0b\0', now)).toBeNull();
  });

  it('parses the portable stat loop with the remote UTC offset', () => {
    const out = `+0800\0-rw-r--r--/5/us/er/${now - 60}\nfile name\0drwxr-xr-x/4096/root/${now - 400 * 86400}\nd\0`;
    expect(parsePortableListing(out, now)).toEqual([
      { name: 'file name', is_dir: false, size: '5', perms: '-rw-r--r--', owner: 'us/er', modified: 'Nov 23 02:14' },
      { name: 'd', is_dir: true, size: '4096', perms: 'drwxr-xr-x', owner: 'root', modified: 'Oct 19 2025' },
    ]);
  });

  it('sorts directories first, then names case-insensitively', () => {
    const e = (name: string, is_dir: boolean) => ({ name, is_dir, size: '0', perms: '', owner: '', modified: '' });
    expect(sortEntries([e('b', false), e('A', false), e('z', true), e('C', true)]).map((x) => x.name)).toEqual(['C', 'z', 'A', 'b']);
  });
});
