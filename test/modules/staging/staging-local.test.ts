import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { removePrefixLeftovers, uniquePrefix } from './staging-helpers.js';

describe.each(dbKinds())('local staging operations on %s', (db) => {
  let t: TestApp;
  let prefix: string;
  let dir: string;
  let outside: string;

  beforeAll(async () => {
    prefix = uniquePrefix();
    t = await makeTestApp({ db, env: { STAGING_PREFIX: prefix } });
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'staging-outside-'));
  });
  afterAll(async () => {
    await t?.close();
    removePrefixLeftovers(prefix);
    fs.rmSync(outside, { recursive: true, force: true });
  });
  beforeEach(() => {
    removePrefixLeftovers(prefix);
    fs.rmSync(outside, { recursive: true, force: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    dir = `${prefix}0123456789ab`;
    fs.mkdirSync(path.join(dir, 'Beta'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'alpha'));
    fs.writeFileSync(path.join(dir, 'b.txt'), 'bb');
    fs.writeFileSync(path.join(dir, 'A.txt'), 'a');
    fs.writeFileSync(path.join(dir, 'c.txt'), 'ccc');
    fs.writeFileSync(path.join(dir, 'Beta/inner.txt'), 'inner');
    fs.symlinkSync(outside, path.join(dir, 'out-link'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'secret-link'));
    fs.symlinkSync('/nonexistent/target', path.join(dir, 'dangling'));
  });

  const post = async (url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/api/sync/${url}`, payload, headers: await t.auth() });
  const lastAudit = async (action: string) =>
    (await t.app.inject({ url: `/api/audit?action=${action}&limit=1`, headers: await t.auth() })).json().items[0];

  describe('browse-local', () => {
    it('lists directories first, then names case-insensitively, and strips a trailing slash', async () => {
      const res = await post('browse-local', { path: `${dir}/` });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.path).toBe(dir);
      // out-link points outside but is still listed (as the directory it resolves to); dangling is skipped.
      expect(body.entries.map((e: { name: string }) => e.name)).toEqual([
        'alpha', 'Beta', 'out-link', 'A.txt', 'b.txt', 'c.txt', 'secret-link',
      ]);
      expect(body.entries.find((e: { name: string }) => e.name === 'Beta')).toEqual({ name: 'Beta', is_dir: true, size: 0 });
      expect(body.entries.find((e: { name: string }) => e.name === 'c.txt')).toEqual({ name: 'c.txt', is_dir: false, size: 3 });
      expect(await lastAudit('browse_local')).toMatchObject({ action: 'browse_local', target_id: dir });
    });

    it('answers 403 outside staging (also through a symlink or ..), 404 for a file or a missing path', async () => {
      for (const p of ['/etc', `${dir}/..`, `${dir}/out-link`, `${dir}/../..${outside}`, '/tmp']) {
        expect((await post('browse-local', { path: p })).statusCode, p).toBe(403);
      }
      expect((await post('browse-local', { path: `${dir}/b.txt` })).statusCode).toBe(404);
      expect((await post('browse-local', { path: `${dir}/missing` })).statusCode).toBe(404);
      expect((await post('browse-local', {})).statusCode).toBe(422);
      expect((await post('browse-local', { path: `${dir}/\0x` })).statusCode).toBe(422);
      expect((await post('validate-source-path', { path: `${dir}/\0x` })).statusCode).toBe(422);
    });
  });

  describe('local-file-ops', () => {
    it('deletes a file and a whole tree', async () => {
      const res = await post('local-file-ops', { path: `${dir}/b.txt`, operation: 'delete' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, operation: 'delete', path: `${dir}/b.txt` });
      expect(fs.existsSync(`${dir}/b.txt`)).toBe(false);
      expect((await post('local-file-ops', { path: `${dir}/Beta`, operation: 'delete' })).statusCode).toBe(200);
      expect(fs.existsSync(`${dir}/Beta`)).toBe(false);
      expect(await lastAudit('local_file_delete')).toMatchObject({ target_id: `${dir}/Beta` });
    });

    it('deletes a staging directory holding a symlink to outside without touching the outside', async () => {
      expect((await post('local-file-ops', { path: dir, operation: 'delete' })).statusCode).toBe(200);
      expect(fs.existsSync(dir)).toBe(false);
      expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    });

    it('refuses outside staging, through symlinks, and answers 404 for a missing path', async () => {
      expect((await post('local-file-ops', { path: `${dir}/out-link/secret.txt`, operation: 'delete' })).statusCode).toBe(403);
      expect((await post('local-file-ops', { path: `${dir}/secret-link`, operation: 'delete' })).statusCode).toBe(403);
      expect((await post('local-file-ops', { path: `${dir}/../${path.basename(outside)}`, operation: 'delete' })).statusCode).toBe(403);
      expect((await post('local-file-ops', { path: '/etc/hostname', operation: 'delete' })).statusCode).toBe(403);
      expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
      expect((await post('local-file-ops', { path: `${dir}/missing`, operation: 'delete' })).statusCode).toBe(404);
      expect((await post('local-file-ops', { path: `${dir}/b.txt`, operation: 'chmod' })).statusCode).toBe(400);
      expect((await post('local-file-ops', { path: `${dir}/b.txt` })).statusCode).toBe(422);
    });

    it('renames with a sanitised sibling name', async () => {
      const res = await post('local-file-ops', { path: `${dir}/b.txt`, operation: 'rename', new_name: '  ../x\\y.txt ' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ success: true, operation: 'rename', path: `${dir}/b.txt`, new_name: '.._x_y.txt' });
      expect(fs.readFileSync(path.join(dir, '.._x_y.txt'), 'utf8')).toBe('bb');
      expect(await lastAudit('local_file_rename')).toMatchObject({ target_id: `${dir}/b.txt` });
    });

    it('rename errors: missing name, bad names, missing source, existing target, target outside', async () => {
      const rename = (p: string, new_name?: unknown) => post('local-file-ops', { path: p, operation: 'rename', new_name });
      expect((await rename(`${dir}/b.txt`)).statusCode).toBe(400);
      expect((await rename(`${dir}/b.txt`, null)).statusCode).toBe(400);
      for (const bad of ['', '   ', '.', '..', ' .. ']) expect((await rename(`${dir}/b.txt`, bad)).statusCode, bad).toBe(400);
      expect((await rename(`${dir}/missing.txt`, 'new.txt')).statusCode).toBe(404);
      expect((await rename(`${dir}/b.txt`, 'c.txt')).statusCode).toBe(400);
      expect((await rename(`${dir}/b.txt`, 'Beta')).statusCode).toBe(400);
      // An existing symlink that points outside is the "target outside" case (403) before "exists" (400).
      expect((await rename(`${dir}/b.txt`, 'out-link')).statusCode).toBe(403);
      // Renaming a staging directory itself to a name without the prefix would leave staging.
      expect((await rename(dir, 'escaped')).statusCode).toBe(403);
      expect(fs.readFileSync(`${dir}/b.txt`, 'utf8')).toBe('bb');
      expect(fs.readFileSync(`${dir}/c.txt`, 'utf8')).toBe('ccc');
    });
  });

  describe('local-file-preview', () => {
    it('returns the first 4096 bytes base64 with a text/binary hint', async () => {
      const text = 'héllo wörld\n'.repeat(1000); // > 4096 bytes, multi-byte chars may straddle the cut
      fs.writeFileSync(path.join(dir, 'big.txt'), text);
      const res = await post('local-file-preview', { path: `${dir}/big.txt` });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      const bytes = Buffer.from(text);
      expect(body).toMatchObject({ name: 'big.txt', size: bytes.length, truncated: true, encoding_hint: 'text' });
      expect(Buffer.from(body.content_base64, 'base64')).toEqual(bytes.subarray(0, 4096));
      expect(await lastAudit('local_file_preview')).toMatchObject({ target_id: `${dir}/big.txt` });

      fs.writeFileSync(path.join(dir, 'bin.dat'), Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3]));
      const bin = (await post('local-file-preview', { path: `${dir}/bin.dat` })).json();
      expect(bin).toMatchObject({ name: 'bin.dat', size: 5, truncated: false, encoding_hint: 'binary' });

      const empty = path.join(dir, 'empty.txt');
      fs.writeFileSync(empty, '');
      expect((await post('local-file-preview', { path: empty })).json()).toMatchObject({ size: 0, content_base64: '', encoding_hint: 'text' });
    });

    it('403 outside, 404 for a directory or missing file or FIFO, 400 above 1 MiB', async () => {
      expect((await post('local-file-preview', { path: `${dir}/secret-link` })).statusCode).toBe(403);
      expect((await post('local-file-preview', { path: '/etc/passwd' })).statusCode).toBe(403);
      expect((await post('local-file-preview', { path: `${dir}/Beta` })).statusCode).toBe(404);
      expect((await post('local-file-preview', { path: `${dir}/none.txt` })).statusCode).toBe(404);
      execFileSync('mkfifo', [path.join(dir, 'pipe')]);
      expect((await post('local-file-preview', { path: `${dir}/pipe` })).statusCode).toBe(404);
      fs.writeFileSync(path.join(dir, 'limit.bin'), Buffer.alloc(1_048_576, 1));
      expect((await post('local-file-preview', { path: `${dir}/limit.bin` })).statusCode).toBe(200);
      fs.writeFileSync(path.join(dir, 'over.bin'), Buffer.alloc(1_048_577, 1));
      expect((await post('local-file-preview', { path: `${dir}/over.bin` })).statusCode).toBe(400);
    });
  });

  describe('validate-source-path', () => {
    it('counts files and bytes below a directory, without following symlinks', async () => {
      const res = await post('validate-source-path', { path: `  ${dir}  ` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        valid: true, is_dir: true, path: dir, file_count: 4, size_bytes: 2 + 1 + 3 + 5, file_count_truncated: false,
      });
      expect(await lastAudit('validate_source_path')).toMatchObject({ target_id: dir });
    });

    it('does not require staging, but refuses system roots after resolution', async () => {
      expect((await post('validate-source-path', { path: outside })).statusCode).toBe(200);
      for (const p of ['/etc', '/etc/', '/var/log', '/proc', '/home', '/root', '/srv', '/run', '/sys', '/dev', '/boot']) {
        expect((await post('validate-source-path', { path: p })).statusCode, p).toBe(403);
      }
      const link = path.join(outside, 'to-etc');
      fs.symlinkSync('/etc', link);
      expect((await post('validate-source-path', { path: link })).statusCode).toBe(403);
    });

    it('400 for a .. component or a file, 404 when missing', async () => {
      expect((await post('validate-source-path', { path: `${dir}/../x` })).statusCode).toBe(400);
      expect((await post('validate-source-path', { path: `${dir}/Beta/..` })).statusCode).toBe(400);
      expect((await post('validate-source-path', { path: `${dir}/b.txt` })).statusCode).toBe(400);
      expect((await post('validate-source-path', { path: `${dir}/missing` })).statusCode).toBe(404);
      expect((await post('validate-source-path', { path: '   ' })).statusCode).toBe(400);
      // `..x` and `x..` are names, not parent references.
      fs.mkdirSync(path.join(dir, '..x'));
      expect((await post('validate-source-path', { path: `${dir}/..x` })).statusCode).toBe(200);
    });

    it('stops counting at 10,000 files', async () => {
      const many = path.join(dir, 'many');
      for (let d = 0; d < 11; d++) {
        fs.mkdirSync(path.join(many, `d${d}`), { recursive: true });
        for (let i = 0; i < 1000; i++) fs.writeFileSync(path.join(many, `d${d}`, `f${i}`), 'x');
      }
      const body = (await post('validate-source-path', { path: many })).json();
      expect(body).toMatchObject({ file_count: 10_000, size_bytes: 10_000, file_count_truncated: true });
    });
  });

  it('needs a login', async () => {
    for (const url of ['browse-local', 'local-file-ops', 'local-file-preview', 'validate-source-path']) {
      const res = await t.app.inject({ method: 'POST', url: `/api/sync/${url}`, payload: { path: dir, operation: 'delete' } });
      expect(res.statusCode).toBe(401);
    }
    expect(fs.existsSync(dir)).toBe(true);
  });
});
