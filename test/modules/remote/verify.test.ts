import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../../src/modules/remote/local-manifest.js';
import { parseSha256sum } from '../../../src/modules/remote/verify.service.js';
import { dbKinds } from '../../helpers/targets.js';
import { markerPath, remoteTestApp, writeRemote, type RemoteTestApp } from './remote-helpers.js';

function writeLocal(file: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

describe.each(dbKinds())('POST /api/sync/verify on %s', (db) => {
  let r: RemoteTestApp;
  let src: string;
  let remote: string;
  const marker = markerPath();
  const odd = ['name with space', 'new\nline', '-dash', 'back\\slash', 'ünï 文件', `$(touch ${path.basename(marker)})`, "'; touch x #"];
  const verify = (body: Record<string, unknown>) =>
    r.post('/api/sync/verify', { source_path: src, server_ids: [r.serverId], target_path: remote, ...body });

  beforeAll(async () => {
    r = await remoteTestApp(db);
    src = r.stagingDir();
    remote = r.remoteDir();
    for (const name of ['a.txt', 'sub/b.txt', 'sub/deeper/c.txt', ...odd]) {
      writeLocal(path.join(src, name), `content ${name}`);
      writeRemote(path.join(remote, name), `content ${name}`);
    }
    writeLocal(`${src}/changed.txt`, 'local');
    writeRemote(`${remote}/changed.txt`, 'remote');
    writeLocal(`${src}/only-local.txt`, 'x');
    fs.symlinkSync('/etc/hostname', `${src}/link-is-skipped`);
  });
  afterAll(async () => r?.close());

  it('counts matched, missing and mismatched files per server, keyed by server id', async () => {
    const res = await verify({});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      total_local_files: 12,
      results: {
        [String(r.serverId)]: {
          server_id: r.serverId,
          server_name: expect.any(String),
          matched: 10,
          missing: 1,
          mismatched: 1,
          missing_files: ['only-local.txt'],
          mismatched_files: ['changed.txt'],
        },
      },
    });
    expect(fs.existsSync(marker)).toBe(false);
    for (const cwd of ['/home/fleettest', remote]) expect(fs.existsSync(path.join(cwd, path.basename(marker)))).toBe(false);
  });

  it('unknown and unreachable servers get an error entry; duplicates are checked once', async () => {
    const dead = await r.deadServer();
    const res = await verify({ server_ids: [r.serverId, 999_999, dead, r.serverId] });
    expect(res.statusCode).toBe(200);
    const { results } = res.json();
    expect(Object.keys(results).sort()).toEqual([String(r.serverId), '999999', String(dead)].sort());
    expect(results['999999']).toEqual({ server_id: 999_999, server_name: '', error: expect.any(String) });
    expect(results[String(dead)]).toEqual({ server_id: dead, server_name: expect.any(String), error: expect.stringMatching(/refused/i) });
    expect(results[String(r.serverId)].matched).toBe(10);
  });

  it('a missing target directory means every file is missing; the target defaults to the server path', async () => {
    const gone = (await verify({ target_path: `${remote}/nope` })).json().results[String(r.serverId)];
    expect(gone).toMatchObject({ matched: 0, missing: 12, mismatched: 0 });
    const withTarget = await r.createServer({ name: 'verify-target', target_path: remote });
    const res = await r.post('/api/sync/verify', { source_path: src, server_ids: [withTarget] });
    expect(res.json().results[String(withTarget)]).toMatchObject({ matched: 10, missing: 1, mismatched: 1 });
  });

  it('max_files bounds the manifest; lists are capped at 50', async () => {
    const body = (await verify({ max_files: 3 })).json();
    expect(body.total_local_files).toBe(3);
    const many = r.stagingDir();
    for (let i = 0; i < 60; i++) writeLocal(`${many}/f${String(i).padStart(2, '0')}`, String(i));
    const res = (await verify({ source_path: many })).json().results[String(r.serverId)];
    expect(res).toMatchObject({ matched: 0, missing: 60 });
    expect(res.missing_files).toHaveLength(50);
    expect(res.missing_files[0]).toBe('f00');
    expect((await verify({ max_files: 0 })).statusCode).toBe(422);
    expect((await verify({ max_files: 100_001 })).statusCode).toBe(422);
  });

  it('10,500 files (2.2 MB of names, over ARG_MAX) go to ONE remote sha256sum run', async () => {
    const bulk = r.stagingDir();
    const bulkRemote = r.remoteDir();
    const longName = 'n'.repeat(200);
    for (let d = 0; d < 20; d++) fs.mkdirSync(`${bulk}/d${d}`);
    for (let i = 0; i < 10_500; i++) fs.writeFileSync(`${bulk}/d${i % 20}/${longName}-${i}`, String(i));
    execFileSync('cp', ['-a', `${bulk}/.`, bulkRemote]);
    fs.writeFileSync(`${bulkRemote}/d3/${longName}-3`, 'different');
    const res = await r.post('/api/sync/verify', { source_path: bulk, server_ids: [r.serverId], target_path: bulkRemote, max_files: 100_000 });
    expect(res.statusCode).toBe(200);
    expect(res.json().total_local_files).toBe(10_500);
    expect(res.json().results[String(r.serverId)]).toMatchObject({ matched: 10_499, missing: 0, mismatched: 1 });
  }, 120_000);

  it('400 for a non-directory or empty source, 403 outside staging', async () => {
    expect((await verify({ source_path: `${src}/a.txt` })).statusCode).toBe(400);
    expect((await verify({ source_path: `${src}/nope` })).statusCode).toBe(400);
    const empty = r.stagingDir();
    fs.mkdirSync(`${empty}/only-dirs`);
    expect((await verify({ source_path: empty })).statusCode).toBe(400);
    // The spec's 400 comes first: a path that is no directory is a 400 wherever it points.
    expect((await verify({ source_path: '/nonexistent-fleet-dir' })).statusCode).toBe(400);
    expect((await verify({ source_path: '/etc/hostname' })).statusCode).toBe(400);
    expect((await verify({ source_path: '/etc' })).statusCode).toBe(403);
    expect((await verify({ source_path: `${src}/../../etc` })).statusCode).toBe(403);
    expect((await verify({ source_path: 'a\u0000b' })).statusCode).toBe(422);
    expect((await r.post('/api/sync/verify', { source_path: src })).statusCode).toBe(422);
  });

  it('hostile target paths run nothing', async () => {
    const m = markerPath();
    for (const target of [`'; touch ${m} #`, `$(touch ${m})`, `\`touch ${m}\``, `x\ntouch ${m}`, `-x; touch ${m}`]) {
      const res = await verify({ target_path: target });
      expect(res.statusCode).toBe(200);
      expect(res.json().results[String(r.serverId)].missing).toBe(12);
    }
    expect(fs.existsSync(m)).toBe(false);
  });

  it('is audited as sync_verify', async () => {
    const rows = await r.audit('sync_verify');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0].detail).toMatch(/files=/);
  });
});

describe('manifest helpers', () => {
  it('parses sha256sum output, escaped names included', () => {
    const h = 'a'.repeat(64);
    const out = `${h}  plain name\n\\${h}  new\\nline\\\\x\n${h} *binary\nsha256sum: gone: No such file or directory\n`;
    expect(parseSha256sum(out)).toEqual(new Map([['plain name', h], ['new\nline\\x', h], ['binary', h]]));
  });

  it('lists regular files depth-first in name order and stops at the limit', async () => {
    const dir = fs.mkdtempSync('/tmp/fleet-manifest-');
    try {
      for (const f of ['b', 'a/z', 'a/y', 'c/x']) writeLocal(`${dir}/${f}`, f);
      fs.symlinkSync('/etc', `${dir}/link`);
      expect(await listFiles(dir, 10)).toEqual(['b', 'a/y', 'a/z', 'c/x']);
      expect(await listFiles(dir, 2)).toEqual(['b', 'a/y']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
