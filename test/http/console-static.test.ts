import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const HTML = { accept: 'text/html,application/xhtml+xml' };

describe('web console serving', () => {
  let built: TestApp;
  let unbuilt: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-console-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync('console.log(1)'));
    fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
    built = await makeTestApp({ consoleDir: dir });
    unbuilt = await makeTestApp({ consoleDir: path.join(dir, 'missing') });
  });
  afterAll(async () => {
    await built.close();
    await unbuilt.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html for the root and any page a browser asks for, revalidated every time', async () => {
    for (const url of ['/', '/servers', '/history/abc-123?x=1']) {
      const res = await built.app.inject({ url, headers: HTML });
      expect([url, res.statusCode, res.headers['content-type'], res.headers['cache-control']]).toEqual([
        url, 200, 'text/html; charset=utf-8', 'no-cache',
      ]);
      expect(res.body).toBe('<!doctype html><title>console</title>');
      // The console's pages run under the CSP (no inline script) like every other answer.
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('serves built assets with a year of caching, other files revalidated', async () => {
    const js = await built.app.inject({ url: '/assets/app-abc123.js' });
    expect([js.statusCode, js.headers['cache-control'], js.body]).toEqual([200, 'public, max-age=31536000, immutable', 'console.log(1)']);
    const icon = await built.app.inject({ url: '/favicon.svg' });
    expect([icon.statusCode, icon.headers['cache-control']]).toEqual([200, 'no-cache']);
  });

  it('sends the brotli copy from the build to a browser that accepts it, the plain file to one that does not', async () => {
    const br = await built.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect([br.statusCode, br.headers['content-encoding'], br.headers.vary]).toEqual([200, 'br', 'accept-encoding']);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    const gzipOnly = await built.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect([gzipOnly.statusCode, gzipOnly.headers['content-encoding'], gzipOnly.body]).toEqual([200, undefined, 'console.log(1)']);
  });

  it('never answers for API paths, unknown files or other methods: those keep the JSON 404', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'], ['GET', '/ws/nope'], ['GET', '/docs/nope'], ['GET', '/health/x'], ['GET', '/app/x'],
      ['GET', '/assets/missing.js'], ['GET', '/../package.json'], ['GET', '/%2e%2e/package.json'], ['POST', '/servers'],
    ] as const) {
      const res = await built.app.inject({ method, url, headers: url.startsWith('/assets') || url.includes('..') || url.includes('%2e') ? {} : HTML });
      expect([url, res.statusCode, res.headers['content-type']]).toEqual([url, 404, 'application/json; charset=utf-8']);
      expect(res.json().detail).toMatch(/^Not found: /);
    }
  });

  it('says how to build the console when it is not built', async () => {
    const res = await unbuilt.app.inject({ url: '/', headers: HTML });
    expect([res.statusCode, res.json()]).toEqual([503, { detail: 'The web console is not built: run `npm run build`', code: 'console_not_built' }]);
    expect((await unbuilt.app.inject({ url: '/api/nope' })).statusCode).toBe(404);
  });

  it('leaves API routes, their authentication and the path-length guard unchanged', async () => {
    expect((await built.app.inject({ url: '/api/servers', headers: HTML })).statusCode).toBe(401);
    expect((await built.app.inject({ url: '/health' })).statusCode).toBe(200);
    expect((await built.app.inject({ url: `/api/servers/${'x'.repeat(200)}` })).statusCode).toBe(414);
  });
});
