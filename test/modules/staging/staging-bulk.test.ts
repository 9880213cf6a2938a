/** mkdir in staging, bulk delete of whole staging directories (by name, by age), and the ZIP's file count. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { buildZip, multipart, removePrefixLeftovers, uniquePrefix } from './staging-helpers.js';

describe.each(dbKinds())('staging mkdir and bulk delete on %s', (db) => {
  let t: TestApp;
  let prefix: string;
  let outside: string;
  beforeAll(async () => {
    prefix = uniquePrefix();
    t = await makeTestApp({ db, env: { STAGING_PREFIX: prefix } });
  });
  afterAll(async () => {
    await t?.close();
    removePrefixLeftovers(prefix);
  });
  beforeEach(() => {
    removePrefixLeftovers(prefix);
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'staging-bulk-outside-'));
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'keep');
  });

  const post = async (url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/api/sync/${url}`, payload, headers: await t.auth() });
  const audits = async (action: string) =>
    (await t.app.inject({ url: `/api/audit?action=${action}`, headers: await t.auth() })).json().items as Array<Record<string, unknown>>;
  const ageDays = (dir: string, days: number) => {
    const at = new Date(Date.now() - days * 86_400_000);
    fs.utimesSync(dir, at, at);
  };

  it('mkdir creates one directory inside staging, audited; taken, parentless and outside paths are refused', async () => {
    const dir = `${prefix}aaa`;
    fs.mkdirSync(dir);
    fs.symlinkSync(outside, path.join(dir, 'out'));
    const res = await post('local-file-ops', { path: `${dir}/new folder`, operation: 'mkdir' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, operation: 'mkdir', path: `${dir}/new folder` });
    expect(fs.statSync(`${dir}/new folder`).isDirectory()).toBe(true);
    expect((await audits('local_file_mkdir'))[0]).toMatchObject({ target_id: `${dir}/new folder` });

    const taken = await post('local-file-ops', { path: `${dir}/new folder`, operation: 'mkdir' });
    expect([taken.statusCode, taken.json().code]).toEqual([400, 'path_exists']);
    const noParent = await post('local-file-ops', { path: `${dir}/missing/x`, operation: 'mkdir' });
    expect([noParent.statusCode, noParent.json().code]).toEqual([404, 'path_not_found']);
    const viaLink = await post('local-file-ops', { path: `${dir}/out/x`, operation: 'mkdir' });
    expect([viaLink.statusCode, viaLink.json().code]).toEqual([403, 'path_outside_staging']);
    expect(fs.existsSync(path.join(outside, 'x'))).toBe(false);
    const up = await post('local-file-ops', { path: `${dir}/..`, operation: 'mkdir' });
    expect(up.statusCode).toBe(403);
  });

  it('deletes named staging directories with their origin records; symlinks, files and strangers are left alone', async () => {
    const zip = multipart('site.zip', buildZip([{ name: 'a.txt', data: 'a' }, { name: 'd/b.txt', data: 'b' }]));
    const upload = await t.app.inject({ method: 'POST', url: '/api/sync/upload-zip', payload: zip.payload, headers: { ...zip.headers, ...(await t.auth()) } });
    expect(upload.statusCode, upload.body).toBe(200);
    const zipped: string = upload.json().source_path;
    const listed = (await t.app.inject({ url: '/api/sync/staging-dirs', headers: await t.auth() })).json();
    expect(listed.items.find((d: { path: string }) => d.path === zipped).zip).toMatchObject({ filename: 'site.zip', file_count: 2 });

    const plain = `${prefix}plain`;
    fs.mkdirSync(plain);
    fs.symlinkSync(outside, `${prefix}link`);
    fs.writeFileSync(`${prefix}file`, 'x');
    const res = await post('staging-dirs/delete', {
      names: [path.basename(zipped), path.basename(plain), path.basename(`${prefix}link`), path.basename(`${prefix}file`), '..', 'etc', `${path.basename(plain)}/../x`],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deleted.sort()).toEqual([plain, zipped].sort());
    expect(res.json().missing).toHaveLength(5);
    expect(fs.existsSync(zipped) || fs.existsSync(`${zipped}.origin.json`) || fs.existsSync(plain)).toBe(false);
    expect(fs.lstatSync(`${prefix}link`).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep');
    expect((await audits('local_file_delete')).filter((a) => a.detail === 'directory (bulk)').map((a) => a.target_id).sort()).toEqual([plain, zipped].sort());
  });

  it('deletes every staging directory older than N days, never following a symlink inside', async () => {
    const old = `${prefix}old`;
    const fresh = `${prefix}fresh`;
    fs.mkdirSync(old);
    fs.symlinkSync(outside, path.join(old, 'escape'));
    fs.mkdirSync(fresh);
    ageDays(old, 10);
    ageDays(fresh, 1);
    const res = await post('staging-dirs/delete', { older_than_days: 7 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deleted: [old], missing: [] });
    expect(fs.existsSync(fresh)).toBe(true);
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep');
  });

  it.each([
    [{}, 400, 'staging_bulk_criteria'],
    [{ names: [] }, 400, 'staging_bulk_criteria'],
    [{ names: ['x'], older_than_days: 3 }, 400, 'staging_bulk_criteria'],
    [{ older_than_days: -1 }, 422, 'validation_failed'],
  ])('bulk delete %j → %i %s', async (body, status, code) => {
    const res = await post('staging-dirs/delete', body);
    expect([res.statusCode, res.json().code]).toEqual([status, code]);
  });
});
