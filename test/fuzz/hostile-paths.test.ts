/**
 * Hostile values in every path-like and name-like field of the endpoints that touch files or run
 * things — staging, local file ops, remote browse and file ops, upload, push source and target,
 * preview, diagnose, diff, verify, scripts — against the suite's real sshd. The values: NUL, newlines,
 * `--option`, `$(touch …)`, backticks, quotes, globs, very long names, lone surrogates and invalid
 * UTF-8 bytes, Unicode look-alikes, and `..` in every encoding (%2e%2e, %252e, overlong UTF-8,
 * backslashes). No answer is a 5xx (save a 502 naming a failed upstream), no command runs (the
 * marker file never appears, locally or on the target: the sshd's files are on this machine),
 * and a sentinel directory beside each area — staging locally, a scratch dir remotely — is
 * byte-for-byte unchanged afterwards.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileNames } from '../fixtures/hostile-names.js';
import { remoteTestApp, writeRemote, type RemoteTestApp } from '../modules/remote/remote-helpers.js';
import { snapshot } from './fuzz-harness.js';

const MARKER = `/tmp/fuzz-pwned-${crypto.randomUUID()}`;

/** Relative names; `..` only in encodings that must stay literal (a literal `..` is tried separately). */
const HOSTILE: string[] = [
  ...hostileNames(MARKER),
  'a\u0000b', 'line\nbreak', 'cr\rname', '--delete', '--help', `-oProxyCommand=touch ${MARKER}`, '-e touch x', '--rsync-path=touch',
  '*', '?', '[a-z]', '{a,b}', '~', '$HOME', '$' + '{IFS}', 'n'.repeat(300), `${'d/'.repeat(1_000)}f`, '\ud800lone', '\ufffd\ufffe',
  '\u2215etc\u2215passwd', '\uff0e\uff0e', '\u2024\u2024', '\u00c0\u00ae\u00c0\u00ae', '%2e%2e', '%252e%252e', '..%2f', '%c0%ae%c0%ae',
  '..\\..\\', '.\\..', '\u202eexe.txt', 'e\u0301', '\u0430', ' ', '.', '\t',
];

/** Each hostile value with `..` spelled some way that must not walk up to the sentinel. */
function escapes(sentinelName: string): string[] {
  return ['%2e%2e', '%252e%252e', '\uff0e\uff0e', '\u2024\u2024', '\u00c0\u00ae\u00c0\u00ae', '..\\..', '.%2e', '%2e.'].map(
    (dots) => `${dots}/${sentinelName}/keep.txt`,
  );
}

describe('hostile path and name fields against the real sshd', () => {
  let r: RemoteTestApp;
  let area: string;
  let remoteSentinel: string;
  let staging: string;
  let localSentinel: string;
  let before: { remote: Record<string, string>; local: Record<string, string> };
  const answers: Array<{ what: string; status: number; code?: string }> = [];

  beforeAll(async () => {
    r = await remoteTestApp('sqlite');
    area = r.remoteDir();
    remoteSentinel = r.remoteDir();
    writeRemote(path.join(remoteSentinel, 'keep.txt'), 'keep');
    writeRemote(path.join(remoteSentinel, 'sub', 'keep2.txt'), 'keep2');
    writeRemote(path.join(area, 'f.txt'), 'f');
    staging = r.stagingDir();
    fs.mkdirSync(path.join(staging, 'src'));
    fs.writeFileSync(path.join(staging, 'src', 'a.txt'), 'a');
    // Files in the push source named with the hostile values a filename can hold.
    for (const name of HOSTILE.filter((n) => !n.includes('\u0000') && !n.includes('/') && n.length < 250 && n !== '.' && n.trim())) {
      fs.writeFileSync(path.join(staging, 'src', Buffer.from(name, 'utf8').toString('utf8')), name);
    }
    localSentinel = `${path.dirname(staging)}/fleet-fuzz-sentinel-${crypto.randomBytes(4).toString('hex')}`;
    fs.mkdirSync(path.join(localSentinel, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(localSentinel, 'keep.txt'), 'keep');
    before = { remote: snapshot(remoteSentinel), local: snapshot(localSentinel) };
  });
  afterAll(async () => {
    fs.rmSync(localSentinel, { recursive: true, force: true });
    await r?.close();
  });

  async function call(what: string, res: Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
    const a = await res;
    answers.push({ what, status: a.statusCode, code: a.statusCode >= 400 ? (JSON.parse(a.body).code as string) : undefined });
    const context = `${what} → ${a.statusCode} ${a.body.slice(0, 400)}`;
    if (a.statusCode === 502) expect(a.json(), context).toHaveProperty('code');
    else expect(a.statusCode, context).toBeLessThan(500);
    expect(/\n\s+at \S+ \(|node:internal/.test(a.body), `stack trace in ${context}`).toBe(false);
    expect(fs.existsSync(MARKER), `${MARKER} appeared after ${what}`).toBe(false);
    return a;
  }
  const post = (what: string, url: string, body: unknown) => call(`${url} ${what}`, r.post(url, body));

  it('remote browse, mkdir, rename and delete take every hostile name literally', async () => {
    const id = r.serverId;
    for (const v of [...HOSTILE, ...escapes(path.basename(remoteSentinel))]) {
      const p = `${area}/${v}`;
      await post(JSON.stringify(v), '/api/sync/browse', { server_id: id, path: p });
      await post(JSON.stringify(v), '/api/sync/file-ops', { server_id: id, operation: 'mkdir', path: p });
      await post(JSON.stringify(v), '/api/sync/file-ops', { server_id: id, operation: 'rename', path: `${area}/f.txt`, new_path: p });
      await post(JSON.stringify(v), '/api/sync/file-ops', { server_id: id, operation: 'rename', path: p, new_path: `${area}/f.txt` });
      await post(JSON.stringify(v), '/api/sync/file-ops', { server_id: id, operation: 'delete', path: p });
      await post(JSON.stringify(v), '/api/sync/file-diff', { server_id: id, source_path: path.join(staging, 'src'), relative_path: v, target_path: area });
    }
  }, 120_000);

  it('invalid UTF-8 bytes in a JSON path arrive as U+FFFD, never as a byte sequence a shell or filesystem reads', async () => {
    for (const bytes of [[0xff, 0xfe], [0xc0, 0xae, 0xc0, 0xae], [0xed, 0xa0, 0x80], [0xe2, 0x80]]) {
      const payload = Buffer.concat([
        Buffer.from(`{"server_id":${r.serverId},"operation":"mkdir","path":"${area}/bad-`),
        Buffer.from(bytes),
        Buffer.from('"}'),
      ]);
      await call(`file-ops bytes ${bytes}`, r.t.app.inject({
        method: 'POST', url: '/api/sync/file-ops', payload, headers: { ...(await r.t.auth()), 'content-type': 'application/json' },
      }));
    }
  });

  it('upload takes a hostile remote path and filename literally', async () => {
    const boundary = '----hostile-boundary';
    const cases = [...HOSTILE.map((v) => [area, v]), ...HOSTILE.map((v) => [`${area}/${v}`, 'u.txt'])];
    for (const [dir, v] of cases) {
      const name = v.replace(/["\r\n]/g, '_');
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="server_id"\r\n\r\n${r.serverId}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="remote_path"\r\n\r\n${dir}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\nx\r\n--${boundary}--\r\n`),
      ]);
      await call(`upload ${JSON.stringify([dir, v])}`, r.t.app.inject({
        method: 'POST', url: '/api/sync/upload', payload: body,
        headers: { ...(await r.t.auth()), 'content-type': `multipart/form-data; boundary=${boundary}` },
      }));
    }
  });

  it('push, preview, diagnose and verify take a hostile target path literally; the hostile-named sources arrive as written', async () => {
    const id = r.serverId;
    const source = path.join(staging, 'src');
    // Read-only calls, four values at a time to stay within the time budget.
    const values = [...HOSTILE, ...escapes(path.basename(remoteSentinel))];
    for (let i = 0; i < values.length; i += 4) {
      await Promise.all(
        values.slice(i, i + 4).map(async (v) => {
          const target = `${area}/push/${v}`;
          await post(JSON.stringify(v), '/api/sync/preview', { server_id: id, source_path: source, target_path: target, sync_mode: 'full' });
          await post(JSON.stringify(v), '/api/sync/diagnose', { server_id: id, target_path: target });
          await post(JSON.stringify(v), '/api/sync/verify', { server_ids: [id], source_path: source, target_path: target });
        }),
      );
    }
    let landed = 0;
    // Pushes are the slowest calls: a subset of targets, each a full sync.
    for (const v of ['*', '$(touch x)', '--delete', `-oProxyCommand=touch ${MARKER}`, '%2e%2e', '..\\..', 'line\nbreak', '\ud800lone']) {
      const res = await post(JSON.stringify(v), '/api/sync/files', { server_ids: [id], source_path: source, target_path: `${area}/push/${v}`, sync_mode: 'full' });
      if (res.statusCode === 200 && res.json().results?.[0]?.status === 'success') {
        // The target is the literal name (a lone surrogate travels as U+FFFD), holding every source name as written.
        const pushed = fs.readdirSync(path.join(area, 'push', v.replace('\ud800', '\ufffd')));
        expect(pushed.sort(), v).toEqual(fs.readdirSync(source).sort());
        landed++;
      }
    }
    // Most of these names are legal directory names: the pushes must really have happened.
    expect(landed).toBeGreaterThanOrEqual(5);
    const server = await r.t.app.inject({ method: 'PUT', url: `/api/servers/${id}`, headers: await r.t.auth(), payload: { target_path: `${area}/$(touch ${MARKER})` } });
    await call('server target_path', Promise.resolve(server));
    await post('server target', '/api/sync/files', { server_ids: [id], source_path: source, sync_mode: 'full' });
  }, 120_000);

  it('local staging operations refuse every escape and take hostile names literally', async () => {
    const sentinelName = path.basename(localSentinel);
    const ups = ['..', '%2e%2e', '%252e%252e', '\uff0e\uff0e', '..\\..', '\u00c0\u00ae\u00c0\u00ae'];
    for (const v of [...HOSTILE, ...ups.map((d) => `${d}/${sentinelName}/keep.txt`), `../../${sentinelName}/keep.txt`]) {
      const p = `${staging}/${v}`;
      await post(JSON.stringify(v), '/api/sync/browse-local', { path: p });
      await post(JSON.stringify(v), '/api/sync/local-file-preview', { path: p });
      await post(JSON.stringify(v), '/api/sync/validate-source-path', { path: p });
      await post(JSON.stringify(v), '/api/sync/local-file-ops', { path: p, operation: 'mkdir' });
      await post(JSON.stringify(v), '/api/sync/local-file-ops', { path: `${staging}/src/a.txt`, operation: 'rename', new_name: v });
      await post(JSON.stringify(v), '/api/sync/local-file-ops', { path: p, operation: 'delete' });
      await post(JSON.stringify(v), '/api/sync/staging-dirs/delete', { names: [v, `${path.basename(staging)}/${v}`] });
    }
  });

  it('scripts with hostile names run only their own content', async () => {
    for (const v of HOSTILE.slice(0, 12)) {
      const created = await post(JSON.stringify(v), '/api/scripts/', { name: v, content: 'true' });
      const scriptId = created.statusCode === 201 ? created.json().id : undefined;
      await post(JSON.stringify(v), '/api/scripts/run', { server_ids: [r.serverId], ...(scriptId ? { script_id: scriptId } : { script_content: 'true' }) });
    }
  });

  it('afterwards: no command ran and both sentinels are unchanged', () => {
    const tally: Record<string, number> = {};
    for (const a of answers) {
      const k = `${a.what.split(' ')[0]} ${a.status} ${a.code ?? ''}`.trim();
      tally[k] = (tally[k] ?? 0) + 1;
    }
    console.log('hostile-paths answers (endpoint status: count)', tally);
    expect(answers.length).toBeGreaterThan(400);
    expect(fs.existsSync(MARKER)).toBe(false);
    expect(snapshot(remoteSentinel)).toEqual(before.remote);
    expect(snapshot(localSentinel)).toEqual(before.local);
  });
});
