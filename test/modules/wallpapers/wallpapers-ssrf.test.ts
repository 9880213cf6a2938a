/**
 * The archive answer decides which URLs are fetched, and the results are served to anyone:
 * images come only from the archive's own origin (redirects too), only through the address
 * guard, and only real JPEG/PNG/WebP bytes are kept — and served with their real type.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { offlineEnv, sendJson, startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';

const ymd = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 1)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), Buffer.alloc(2000, 2)]);

describe('wallpaper fetches', () => {
  let archive: FakeServer;
  let elsewhere: FakeServer;
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    elsewhere = await startFakeServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('internal secret')]));
    });
    archive = await startFakeServer((req, res) => {
      const u = new URL(req.url, 'http://x');
      if (u.pathname === '/archive') {
        return sendJson(res, 200, {
          images: [
            { startdate: ymd(0), url: `${elsewhere.url}/metadata` },
            { startdate: ymd(-1), url: '/redirect' },
            { startdate: ymd(-2), url: '/html' },
            { startdate: ymd(-3), url: '/png' },
            { startdate: ymd(-4), url: '/webp' },
            { startdate: ymd(-5), url: '//169.254.169.254/latest/meta-data' },
          ],
        });
      }
      if (u.pathname === '/redirect') {
        res.writeHead(302, { location: `${elsewhere.url}/redirected` });
        return res.end();
      }
      if (u.pathname === '/html') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        return res.end('<html><script>alert(1)</script></html>'.padEnd(3000, ' '));
      }
      if (u.pathname === '/png') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        return res.end(PNG);
      }
      if (u.pathname === '/webp') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(WEBP);
      }
      res.writeHead(404);
      res.end();
    });
    t = await makeTestApp({ env: offlineEnv({ WALLPAPER_SOURCE_URL: `${archive.url}/archive`, FLEET_ALLOW_PRIVATE_FETCH: '1' }) });
    dir = path.join(t.dataDir, 'wallpapers');
  });
  afterAll(async () => {
    await t?.close();
    await archive?.close();
    await elsewhere?.close();
  });

  it('fetches nothing from another origin, keeps only real images, serves them with their real type', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/settings/daily-wallpapers/sync', headers: await t.auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ downloaded: 2, count: 2 });
    expect(elsewhere.requests).toHaveLength(0);
    expect(fs.readdirSync(dir).sort()).toEqual([`${ymd(-3)}.jpg`, `${ymd(-4)}.jpg`].sort());
    const png = await t.app.inject({ url: `/app/wallpapers/${ymd(-3)}.jpg` });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect((await t.app.inject({ url: `/app/wallpapers/${ymd(-4)}.jpg` })).headers['content-type']).toBe('image/webp');
    // A file that is not an image (placed by hand) is never served.
    fs.writeFileSync(path.join(dir, `${ymd(-6)}.jpg`), '<html></html>'.padEnd(2000));
    expect((await t.app.inject({ url: `/app/wallpapers/${ymd(-6)}.jpg` })).statusCode).toBe(404);
  });

  it('without the test flag, an archive on a private address is refused (502) and nothing is fetched', async () => {
    const strict = await makeTestApp({ env: offlineEnv({ WALLPAPER_SOURCE_URL: `${archive.url}/archive` }) });
    try {
      const before = archive.requests.length;
      const res = await strict.app.inject({ method: 'POST', url: '/api/settings/daily-wallpapers/sync', headers: await strict.auth() });
      expect(res.statusCode).toBe(502);
      expect(res.json().detail).toMatch(/blocked address/);
      expect(archive.requests.length).toBe(before);
    } finally {
      await strict.close();
    }
  });
});
