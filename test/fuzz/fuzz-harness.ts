/**
 * What the fuzz files share: the seed (FUZZ_SEED replays, printed on failure), the run count
 * (FUZZ_RUNS), an app whose outside-world settings all point at a closed loopback port, a session
 * that renews itself when a fuzzed request ended it (logout, lockout, a deleted admin), the
 * checks every answer must pass, and the database's integrity check afterwards.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { expect } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import type { DbKind } from '../helpers/targets.js';

export const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : crypto.randomInt(2 ** 31 - 1);
/** Generated requests per route and database; a few thousand in all by default. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 12);
/** Longer than any request should take on a loaded machine; past it the request counts as a hang. */
export const REQUEST_TIMEOUT_MS = 20_000;

/** A per-route seed derived from the run's seed, so one FUZZ_SEED replays every route. */
export function seedFor(name: string): number {
  return (FUZZ_SEED ^ crypto.createHash('sha256').update(name).digest().readInt32LE(0)) | 0;
}

/** fast-check's error, with how to replay the whole run in front of it. */
export function withReplayHint(err: unknown): Error {
  const msg = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause instanceof Error ? `\n${err.cause.message}` : '';
  return new Error(`fuzz failure — replay with FUZZ_SEED=${FUZZ_SEED}\n${msg}${cause}`);
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

export interface FuzzApp {
  t: TestApp;
  /** Everything of this app outside DATA_DIR: the staging area and the sentinel dir. */
  root: string;
  stagingPrefix: string;
  /** Files nothing may touch; snapshot before, compare after. */
  sentinel: string;
  port: number;
  marker: string;
}

export async function makeFuzzApp(db: DbKind): Promise<FuzzApp> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-fuzz-'));
  const port = await closedPort();
  const stagingPrefix = path.join(root, 'staging', 'svc_upload_');
  fs.mkdirSync(path.dirname(stagingPrefix), { recursive: true });
  const sentinel = path.join(root, 'sentinel');
  fs.mkdirSync(path.join(sentinel, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(sentinel, 'keep.txt'), 'keep');
  fs.writeFileSync(path.join(sentinel, 'sub', 'keep2.txt'), 'keep2');
  const dead = `http://127.0.0.1:${port}`;
  const t = await makeTestApp({
    db,
    cache: db === 'postgres' && process.env.TEST_CACHE_URL ? 'redis' : 'memory',
    env: { STAGING_PREFIX: stagingPrefix, MESSENGER_API_BASE: dead, WALLPAPER_SOURCE_URL: `${dead}/wallpapers` },
  });
  return { t, root, stagingPrefix, sentinel, port, marker: path.join(os.tmpdir(), `fuzz-pwned-${crypto.randomUUID()}`) };
}

/** Every file below `dir` with its size, mode and content hash. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const st = fs.lstatSync(p);
      const hash = e.isFile() ? crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex') : e.isDirectory() ? 'dir' : 'other';
      out[path.relative(dir, p)] = `${st.mode.toString(8)} ${hash}`;
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

const HARNESS = { adminId: null, username: 'fuzz-harness', ip: '127.0.0.1' };

/**
 * The administrator the fuzzed requests act as. A fuzzed request may end the session (logout,
 * sign-out-others, a deleted admin, a lockout after wrong re-auth passwords, the login allowlist
 * switched on): `renew()` then makes a new admin and logs in from an address of its own.
 */
export class FuzzSession {
  token = '';
  ip = '';
  apiKey = '';
  private n = 0;

  constructor(private readonly t: TestApp) {}

  async renew(): Promise<void> {
    const s = this.t.app.services;
    this.apiKey = s.cipher.decrypt(s.settings.get('api_key')!);
    await s.allowlist.toggle(HARNESS, false);
    const n = ++this.n;
    const username = `fuzz-${n}-${crypto.randomBytes(3).toString('hex')}`;
    const password = `fuzz-password-${crypto.randomBytes(8).toString('hex')}`;
    await s.admins.create(HARNESS, username, password);
    this.ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    const res = await this.t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: this.ip });
    if (res.statusCode !== 200) throw new Error(`fuzz login failed: ${res.statusCode} ${res.body}`);
    this.token = res.json().access_token;
  }

  /** Renews when the current token no longer works. */
  async ensure(): Promise<void> {
    if (this.token) {
      const me = await this.t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${this.token}` }, remoteAddress: this.ip });
      if (me.statusCode === 200) return;
    }
    await this.renew();
  }
}

/** Rejects when the request has not answered in time: a hang is a finding, not a slow test. */
export async function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_r, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: ${what}`)), REQUEST_TIMEOUT_MS);
  });
  try {
    return await Promise.race([p, hang]);
  } finally {
    clearTimeout(timer);
  }
}

const STACK = /\n\s+at [^\n]+:\d+:\d+|node:internal|at async |\.ts:\d+:\d+/;
const SQL = /\b(select\s+[\s\S]{1,200}\s+from|insert\s+into|update\s+\S+\s+set|delete\s+from)\b|SQLITE_[A-Z]+|syntax error at or near|relation "[^"]+" does not exist|violates (foreign key|unique|not-null|check) constraint/i;

/**
 * The rules for any answer: no 5xx except a 502 naming an upstream that failed (an SSH server or
 * bot API at the closed port: the request was fine, the far side was not), no stack trace or
 * SQL text in any body, and no path of the service's own (repo dir, DATA_DIR) in an error.
 */
export function checkAnswer(res: LightMyRequestResponse, fa: FuzzApp, what: string): void {
  const body = res.body;
  const context = `${what}\n→ ${res.statusCode} ${body.slice(0, 600)}`;
  if (res.statusCode === 502) expect(res.json(), context).toHaveProperty('code');
  // inject resolves `..` (and `\`) in the URL the way a browser would, so `/api/x/..\..` is the
  // console's page, a 503 in a checkout whose console is not built: no answer to the input.
  else if (res.statusCode === 503) expect(res.json(), context).toMatchObject({ code: 'console_not_built' });
  else expect(res.statusCode, context).toBeLessThan(500);
  expect(STACK.test(body), `stack trace in ${context}`).toBe(false);
  expect(SQL.test(body), `SQL text in ${context}`).toBe(false);
  // A success may show a configured path on purpose (database_url in the settings list, the
  // patrol's env file for the operator's cron line); an error never names where the service lives.
  if (res.statusCode < 400) return;
  expect(body.includes(process.cwd()), `repo path in ${context}`).toBe(false);
  expect(body.includes(fa.t.dataDir), `DATA_DIR in ${context}`).toBe(false);
}

/**
 * After the fuzz: SQLite passes `integrity_check` and `foreign_key_check`; PostgreSQL answers a
 * consistency query (every server's tags and preset references resolve) and the app still serves.
 */
export async function checkDatabase(fa: FuzzApp, db: DbKind): Promise<void> {
  const url = fa.t.config.databaseUrl;
  if (db === 'sqlite') {
    const file = url.replace(/^sqlite:\/\//, '');
    const conn = new Database(file, { readonly: true });
    try {
      expect(conn.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(conn.pragma('foreign_key_check')).toEqual([]);
    } finally {
      conn.close();
    }
  } else {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const r = await c.query('SELECT count(*)::int AS n FROM servers s LEFT JOIN ssh_key_presets k ON k.id = s.ssh_key_preset_id WHERE s.ssh_key_preset_id IS NOT NULL AND k.id IS NULL');
      expect(r.rows[0].n).toBe(0);
    } finally {
      await c.end();
    }
  }
  const health = await fa.t.app.inject({ url: '/health' });
  expect(health.statusCode).toBe(200);
  const s = fa.t.app.services;
  const apiKey = s.cipher.decrypt(s.settings.get('api_key')!);
  const list = await fa.t.app.inject({ url: '/api/servers/', headers: { 'x-api-key': apiKey } });
  expect(list.statusCode, list.body).toBe(200);
}
