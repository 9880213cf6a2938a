import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv, sendJson, startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';

const DAY = 86_400_000;
const ymd = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10).replace(/-/g, '');
/** A JPEG as far as its first bytes go, carrying a tag to tell copies apart. */
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
const image = (tag: string) => Buffer.concat([JPEG, Buffer.from(tag), Buffer.alloc(2000, 0xff)]);
const tagOf = (file: Buffer) => file.subarray(4, 8).toString();

describe.each(dbKinds())('wallpapers on %s', (db) => {
  let t: TestApp;
  let h: { authorization: string };
  let archive: FakeServer;
  let archiveStatus = 200;
  let dir: string;

  beforeAll(async () => {
    archive = await startFakeServer(async (req, res) => {
      const u = new URL(req.url, 'http://x');
      if (u.pathname === '/deep/path/HPImageArchive.aspx') {
        if (archiveStatus !== 200) return sendJson(res, archiveStatus, { error: 'down' });
        // Slow enough that concurrent first requests overlap.
        await new Promise((r) => setTimeout(r, 100));
        return sendJson(res, 200, {
          images: Array.from({ length: 8 }, (_, i) => ({
            startdate: ymd(-i),
            url: `/th?id=OHR.Pic${i}_1920x1080.jpg&rf=LaDigue_1920x1080.jpg`,
            title: `Pic ${i}`,
          })).concat([{ startdate: 'garbage', url: '/th?id=bad', title: 'bad' }]),
        });
      }
      if (u.pathname === '/th') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        return res.end(image(u.searchParams.get('id') ?? ''));
      }
      res.writeHead(404);
      res.end();
    });
    t = await makeTestApp({
      db,
      // The archive fake is on loopback, which the address guard admits only with this test flag.
      env: offlineEnv({ WALLPAPER_SOURCE_URL: `${archive.url}/deep/path/HPImageArchive.aspx?format=js&idx=0&n=8`, FLEET_ALLOW_PRIVATE_FETCH: '1' }),
    });
    h = await t.auth();
    dir = path.join(t.dataDir, 'wallpapers');
  });
  afterAll(async () => {
    await t?.close();
    await archive?.close();
  });

  const list = () => t.app.inject({ url: '/api/settings/daily-wallpapers' });
  const today = () => t.app.inject({ url: '/api/settings/daily-wallpaper' });

  it('an empty cache answers { url: null } for the daily wallpaper without any outbound call', async () => {
    const res = await today();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: null });
    expect(archive.requests).toHaveLength(0);
  });

  it('GET /daily-wallpapers (public) fills an empty cache once for concurrent callers', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => list()));
    for (const r of results) {
      expect(r.statusCode).toBe(200);
      expect(r.json().count).toBe(8);
    }
    const archiveCalls = archive.requests.filter((r) => r.url.startsWith('/deep/path/HPImageArchive.aspx'));
    expect(archiveCalls).toHaveLength(1);
    // Entry urls are resolved against the archive's origin, not its path.
    const imageCalls = archive.requests.filter((r) => r.url.startsWith('/th?'));
    expect(imageCalls).toHaveLength(8);
    const { urls } = results[0].json();
    expect(urls[0]).toBe(`/app/wallpapers/${ymd(0)}.jpg`);
    expect(urls).toEqual([...urls].sort().reverse());
    expect(fs.readdirSync(dir).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `${ymd(-i)}.jpg`).sort());
  });

  it('a non-empty cache makes no outbound call', async () => {
    const before = archive.requests.length;
    const res = await list();
    expect(res.json().count).toBe(8);
    expect(archive.requests.length).toBe(before);
  });

  it('serves the cached files publicly with a strict name check', async () => {
    const name = `${ymd(0)}.jpg`;
    const res = await t.app.inject({ url: `/app/wallpapers/${name}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.equals(fs.readFileSync(path.join(dir, name)))).toBe(true);
    for (const bad of ['..%2Fsecret_key', '%2E%2E%2Fencryption_key', '2024.jpg', '20241301.jpg', `${ymd(0)}.png`, '20000101.jpg', `${ymd(0)}.jpg.tmp`]) {
      const r = await t.app.inject({ url: `/app/wallpapers/${bad}` });
      expect(r.statusCode, bad).toBe(404);
      expect(r.json()).toHaveProperty('detail');
    }
  });

  it('GET /daily-wallpaper prefers today (> 1024 bytes), else the newest', async () => {
    expect((await today()).json()).toEqual({ url: `/app/wallpapers/${ymd(0)}.jpg` });
    fs.rmSync(path.join(dir, `${ymd(0)}.jpg`));
    expect((await today()).json()).toEqual({ url: `/app/wallpapers/${ymd(-1)}.jpg` });
    // A tiny file for today does not count as today's wallpaper.
    fs.writeFileSync(path.join(dir, `${ymd(0)}.jpg`), Buffer.alloc(1024));
    fs.rmSync(path.join(dir, `${ymd(-1)}.jpg`));
    fs.writeFileSync(path.join(dir, `${ymd(1)}.jpg`), image('tomorrow'));
    expect((await today()).json()).toEqual({ url: `/app/wallpapers/${ymd(1)}.jpg` });
  });

  it('removes files older than 7 days and keeps only the 12 newest', async () => {
    for (const d of [-40, -8, ...Array.from({ length: 14 }, (_, i) => i - 7)]) {
      fs.writeFileSync(path.join(dir, `${ymd(d)}.jpg`), image(String(d)));
    }
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'left alone');
    const before = archive.requests.length;
    const { urls, count } = (await list()).json();
    expect(count).toBe(12);
    expect(urls).toEqual(Array.from({ length: 12 }, (_, i) => `/app/wallpapers/${ymd(6 - i)}.jpg`));
    expect(fs.existsSync(path.join(dir, `${ymd(-8)}.jpg`))).toBe(false);
    expect(fs.existsSync(path.join(dir, `${ymd(-40)}.jpg`))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'notes.txt'))).toBe(true);
    expect(archive.requests.length).toBe(before);
  });

  it('POST /daily-wallpapers/sync needs an admin and reports downloads', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/settings/daily-wallpapers/sync' })).statusCode).toBe(401);
    for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f));
    fs.writeFileSync(path.join(dir, `${ymd(0)}.jpg`), image('kept'));
    const res = await t.app.inject({ method: 'POST', url: '/api/settings/daily-wallpapers/sync', headers: h });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 8, downloaded: 7 });
    expect(body.urls).toHaveLength(8);
    expect(tagOf(fs.readFileSync(path.join(dir, `${ymd(0)}.jpg`)))).toBe('kept');
    const again = await t.app.inject({ method: 'POST', url: '/api/settings/daily-wallpapers/sync', headers: h });
    expect(again.json().downloaded).toBe(0);
    const audit = await t.app.services.db.selectFrom('audit_log').selectAll().where('action', '=', 'sync_wallpapers').execute();
    expect(audit.length).toBe(2);
  });

  it('sync is a 502 when the archive fails; the public list stays a 200', async () => {
    archiveStatus = 500;
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/settings/daily-wallpapers/sync', headers: h });
      expect(res.statusCode).toBe(502);
      for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f));
      const pub = await list();
      expect(pub.statusCode).toBe(200);
      expect(pub.json()).toEqual({ urls: [], count: 0 });
    } finally {
      archiveStatus = 200;
    }
  });
});
