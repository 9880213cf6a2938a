import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/targets.js';
import { hostileNames, markerPath, remoteTestApp, writeRemote, type RemoteTestApp } from './remote-helpers.js';

function writeLocal(file: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

describe.each(dbKinds())('POST /api/sync/file-diff on %s', (db) => {
  let r: RemoteTestApp;
  let src: string;
  let remote: string;
  const diff = (body: Record<string, unknown>) =>
    r.post('/api/sync/file-diff', { server_id: r.serverId, source_path: src, target_path: remote, ...body });

  beforeAll(async () => {
    r = await remoteTestApp(db);
    src = r.stagingDir();
    remote = r.remoteDir();
    writeLocal(`${src}/same.txt`, 'one\ntwo\n');
    writeRemote(`${remote}/same.txt`, 'one\ntwo\n');
    writeLocal(`${src}/sub/changed.txt`, 'a\nB\nc\n');
    writeRemote(`${remote}/sub/changed.txt`, 'a\nb\nc\n');
    writeLocal(`${src}/new.txt`, 'first\nsecond\n');
    fs.symlinkSync('/etc', `${src}/etc-link`);
    fs.symlinkSync('/etc/hostname', `${src}/file-link`);
  });
  afterAll(async () => r?.close());

  it('identical files: no diff lines', async () => {
    const res = await diff({ relative_path: 'same.txt' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      file_name: 'same.txt', local_exists: true, remote_exists: true, local_size: 8, remote_size: 8, diff_lines: [], truncated: false,
    });
  });

  it('a changed file: unified diff from remote to local, prefixes stripped', async () => {
    const body = (await diff({ relative_path: 'sub/changed.txt' })).json();
    expect(body.file_name).toBe('sub/changed.txt');
    expect(body.diff_lines).toEqual([
      { type: 'header', content: '@@ -1,3 +1,3 @@' },
      { type: 'ctx', content: 'a' },
      { type: 'del', content: 'b' },
      { type: 'add', content: 'B' },
      { type: 'ctx', content: 'c' },
    ]);
  });

  it('a missing remote file counts as empty: all additions, remote_exists false', async () => {
    const body = (await diff({ relative_path: 'new.txt' })).json();
    expect(body).toEqual({
      file_name: 'new.txt',
      local_exists: true,
      remote_exists: false,
      local_size: 13,
      remote_size: null,
      diff_lines: [
        { type: 'header', content: '@@ -0,0 +1,2 @@' },
        { type: 'add', content: 'first' },
        { type: 'add', content: 'second' },
      ],
      truncated: false,
    });
  });

  it('the target defaults to the server target_path', async () => {
    const withTarget = await r.createServer({ name: 'diff-target', target_path: remote });
    const body = (await r.post('/api/sync/file-diff', { server_id: withTarget, source_path: src, relative_path: 'same.txt' })).json();
    expect(body).toMatchObject({ remote_exists: true, diff_lines: [] });
  });

  it('reads at most 102,400 characters per side and flags truncation; undecodable bytes are replaced', async () => {
    const big = `${'x'.repeat(99)}\n`.repeat(1500); // 150,000 characters
    writeLocal(`${src}/big.txt`, big);
    writeRemote(`${remote}/big.txt`, big);
    const body = (await diff({ relative_path: 'big.txt' })).json();
    expect(body).toMatchObject({ local_size: 150_000, remote_size: 150_000, truncated: true, diff_lines: [] });

    writeLocal(`${src}/bin.dat`, Buffer.from([0x61, 0xff, 0xfe, 0x0a]));
    const bin = (await diff({ relative_path: 'bin.dat' })).json();
    expect(bin.diff_lines[1]).toEqual({ type: 'add', content: 'a\ufffd\ufffd' });

    const multi = '€'.repeat(110_000); // 330,000 bytes, over the character limit only
    writeLocal(`${src}/euro.txt`, multi);
    writeRemote(`${remote}/euro.txt`, multi);
    const euro = (await diff({ relative_path: 'euro.txt' })).json();
    expect(euro).toMatchObject({ truncated: true, local_size: 330_000, remote_size: 330_000, diff_lines: [] });

    // Characters are code points: 60,000 emoji (120,000 UTF-16 units) are under the limit.
    writeLocal(`${src}/emoji.txt`, '😀'.repeat(60_000));
    const emoji = (await diff({ relative_path: 'emoji.txt' })).json();
    expect(emoji).toMatchObject({ truncated: false, remote_exists: false });
    expect(emoji.diff_lines.filter((l: { type: string }) => l.type === 'add')).toEqual([{ type: 'add', content: '😀'.repeat(60_000) }]);
    writeLocal(`${src}/emoji.txt`, '😀'.repeat(110_000));
    const cut = (await diff({ relative_path: 'emoji.txt' })).json();
    expect(cut.truncated).toBe(true);
    const added = cut.diff_lines.find((l: { type: string }) => l.type === 'add');
    expect([...added.content]).toHaveLength(102_400);
  });

  it('a local path that is not a regular file: 200 with the local_exists false shape', async () => {
    for (const rel of ['missing.txt', 'sub']) {
      const res = await diff({ relative_path: rel });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        file_name: rel, local_exists: false, remote_exists: null, local_size: 0, remote_size: null,
        diff_lines: [], truncated: false, error: expect.any(String),
      });
    }
  });

  it('403 outside staging, through a symlink, or when relative_path escapes the source', async () => {
    for (const body of [
      { source_path: '/etc', relative_path: 'hostname' },
      { source_path: `${src}/etc-link`, relative_path: 'hostname' },
      { source_path: `${src}/../`, relative_path: 'x' },
      { relative_path: '../../etc/hostname' },
      { relative_path: '/etc/hostname' },
      { relative_path: 'file-link' },
    ]) {
      const res = await diff(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
    }
  });

  it('an SSH failure: remote_exists null with an error, the local side still shown', async () => {
    const dead = await r.deadServer();
    const res = await r.post('/api/sync/file-diff', { server_id: dead, source_path: src, relative_path: 'new.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      local_exists: true, remote_exists: null, remote_size: null, error: expect.stringMatching(/refused/i),
    });
    expect(res.json().diff_lines).toHaveLength(3);
  });

  it('a server without credentials is an SSH failure too: 200 with remote_exists null', async () => {
    const bare = await r.createServer({ name: `no-creds-diff-${Date.now()}`, private_key: undefined });
    const res = await r.post('/api/sync/file-diff', { server_id: bare, source_path: src, relative_path: 'new.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ local_exists: true, remote_exists: null, error: expect.stringMatching(/SSH connection failed/) });
  });

  it('404 for a missing server; 422 for a bad body; 422 for a NUL byte', async () => {
    expect((await diff({ server_id: 999_999, relative_path: 'same.txt' })).statusCode).toBe(404);
    expect((await r.post('/api/sync/file-diff', { source_path: src })).statusCode).toBe(422);
    expect((await diff({ relative_path: 'a\u0000b' })).statusCode).toBe(422);
  });

  it('a relative path beyond PATH_MAX is a 400 path_too_long, never a 500 (found by the route fuzzer)', async () => {
    for (const relative_path of [`${'a/'.repeat(2_047)}b`, `sub/${'\u{1F600}'.repeat(2_049)}`]) {
      const res = await diff({ relative_path });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'path_too_long' });
    }
  });

  it('hostile relative paths run nothing', async () => {
    const marker = markerPath();
    for (const name of hostileNames(marker)) {
      writeLocal(path.join(src, 'hostile', name), 'payload\n');
      const res = await diff({ relative_path: `hostile/${name}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ local_exists: true, remote_exists: false });
    }
    for (const target of [`'; touch ${marker} #`, `$(touch ${marker})`, `\`touch ${marker}\``, `x\ntouch ${marker}`, `-x; touch ${marker}`]) {
      const res = await diff({ relative_path: 'new.txt', target_path: target });
      expect(res.json()).toMatchObject({ local_exists: true, remote_exists: false });
    }
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('is audited as file_diff against the server', async () => {
    const rows = await r.audit('file_diff');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ target_type: 'server', admin_username: 'admin' });
  });
});
