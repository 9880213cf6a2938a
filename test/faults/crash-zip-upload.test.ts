/**
 * The service is killed with SIGKILL while a ZIP upload is being extracted into staging, then
 * started again on the same DATA_DIR and staging area. A staging directory is either absent or
 * complete: the extraction went to a hidden work directory, never listed nor accepted as a push
 * source, and the next start sweeps it (and the half-received archive) away. A new upload then
 * works as usual. The restart is measured: serving within 10 s.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../modules/push/push-helpers.js';
import { buildZip, multipart } from '../modules/staging/staging-helpers.js';
import { CrashScope, restartBudgetMs } from './crash-helpers.js';

const crash = new CrashScope();
afterAll(() => crash.cleanup());

/** Sends `payload` as a multipart upload, only its first `firstBytes` now; the rest never comes. */
function partialUpload(port: number, token: string, body: { payload: Buffer; headers: Record<string, string> }, firstBytes: number): http.ClientRequest {
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/sync/upload-zip',
    headers: { ...body.headers, authorization: `Bearer ${token}`, 'content-length': String(body.payload.length) },
  });
  req.on('error', () => {}); // the service is killed under it
  req.write(body.payload.subarray(0, firstBytes));
  return req;
}

describe('SIGKILL during a ZIP extraction', () => {
  it('leaves no half-extracted staging directory: not listed, not a push source, swept at the next start', async () => {
    const dataDir = crash.tempDir();
    const stagingRoot = crash.tempDir();
    const prefix = path.join(stagingRoot, 'svc_upload_');
    const env = { DATA_DIR: dataDir, STAGING_PREFIX: prefix };
    const first = await crash.start(env);

    const big = crypto.randomBytes(24 * 1024 * 1024);
    const zip = buildZip([{ name: 'a.txt', data: 'first\n', method: 0 }, { name: 'big.bin', data: big, method: 0 }]);
    const upload = partialUpload(first.port, first.token, multipart('site.zip', zip), 12 * 1024 * 1024);

    // Extraction is under way: a.txt is written, big.bin is half there.
    const work = await until(async () => {
      const dirs = fs.readdirSync(stagingRoot).filter((n) => n.endsWith('.extracting'));
      const d = dirs[0] && path.join(stagingRoot, dirs[0]);
      return d && fs.existsSync(path.join(d, 'big.bin')) && fs.statSync(path.join(d, 'big.bin')).size > 1024 * 1024 && d;
    }, 30_000);
    expect(fs.readFileSync(path.join(work, 'a.txt'), 'utf8')).toBe('first\n');
    // Meanwhile nothing is offered: the list is empty and the work directory is no push source.
    expect((await first.call('GET', '/api/sync/staging-dirs')).json.items).toEqual([]);
    const during = await first.call('POST', '/api/sync/files', { server_ids: [1], source_path: work });
    expect(during.status).toBe(403);
    expect(during.json.code).toBe('path_outside_staging');

    await crash.kill(first);
    upload.destroy();
    // What the killed process left: the work directory and the half-received archive, nothing under the prefix.
    const left = fs.readdirSync(stagingRoot);
    expect(left.some((n) => n.endsWith('.extracting'))).toBe(true);
    expect(left.filter((n) => n.startsWith('svc_upload_'))).toEqual([]);

    const second = await crash.start(env);
    console.log(`SIGKILL during a ZIP extraction: first start ${first.startMs} ms, restart healthy in ${second.startMs} ms`);
    expect(second.startMs).toBeLessThan(restartBudgetMs(first.startMs));
    expect(fs.readdirSync(stagingRoot)).toEqual([]);
    expect((await second.call('GET', '/api/sync/staging-dirs')).json.items).toEqual([]);
    const gone = await second.call('POST', '/api/sync/validate-source-path', { path: work });
    expect(gone.status).toBe(404);
    expect((await second.call('POST', '/api/sync/files', { server_ids: [1], source_path: work })).status).toBe(400);

    // A new upload goes through as usual and is listed, complete.
    const small = multipart('again.zip', buildZip([{ name: 'b.txt', data: 'second\n' }]));
    const res = await fetch(`http://127.0.0.1:${second.port}/api/sync/upload-zip`, {
      method: 'POST',
      headers: { ...small.headers, authorization: `Bearer ${second.token}` },
      body: new Uint8Array(small.payload),
    });
    expect(res.status).toBe(200);
    const done = (await res.json()) as { source_path: string };
    expect(path.basename(done.source_path)).toMatch(/^svc_upload_[0-9a-f]{12}$/);
    expect(fs.readFileSync(path.join(done.source_path, 'b.txt'), 'utf8')).toBe('second\n');
    const listed = (await second.call('GET', '/api/sync/staging-dirs')).json.items;
    expect(listed.map((d: { path: string }) => d.path)).toEqual([done.source_path]);
    expect(fs.readdirSync(stagingRoot).filter((n) => n.startsWith('.'))).toEqual([]);
  }, 90_000);
});
