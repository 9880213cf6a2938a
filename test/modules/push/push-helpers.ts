/**
 * Shared by the push, retry, schedule and script tests: staged source trees, remote dirs on the
 * local sshd instances (their files are on this machine, so they are compared on disk), servers
 * created through the API, and a recorder of live events.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { SshdInfo } from '../../fixtures/sshd.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import type { DbKind } from '../../helpers/targets.js';
import type { LiveEvent } from '../../../src/platform/events/event-bus.js';

/** SQLite with the in-process cache; PostgreSQL with Redis when the run provides both. */
export function appFor(db: DbKind, env: Record<string, string> = {}): Promise<TestApp> {
  const cache = db === 'postgres' && process.env.TEST_CACHE_URL ? 'redis' : 'memory';
  return makeTestApp({ db, cache, env });
}

export type Caller = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => Promise<LightMyRequestResponse>;

export function caller(get: () => TestApp): Caller {
  return async (method, url, payload) => {
    const t = get();
    return t.app.inject({ method, url, headers: await t.auth(), ...(payload === undefined ? {} : { payload: payload as object }) });
  };
}

/** A fresh directory inside staging (the default prefix /tmp/svc_upload_) holding `files`. */
export function stagingDir(files: Record<string, string | Buffer>): string {
  const dir = fs.mkdtempSync('/tmp/svc_upload_test');
  writeTree(dir, files);
  return dir;
}

export function writeTree(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), data);
  }
}

/** sha256 of every regular file below `dir`, by relative path; {} when the dir is missing. */
export function digestTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out[path.relative(dir, p)] = createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/** A unique directory path under the test user's home (where every sshd instance logs in). */
export function remoteDir(sshd: SshdInfo, label: string): string {
  return path.join(sshd.homeDir, `fleet-push-${label}-${randomUUID().slice(0, 8)}`);
}

export async function addServer(
  call: Caller,
  sshd: SshdInfo,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const res = await call('POST', '/api/servers', {
    name: `${name}-${randomUUID().slice(0, 6)}`,
    host: sshd.host,
    port: sshd.port,
    username: sshd.username,
    private_key: sshd.privateKey,
    ...extra,
  });
  if (res.statusCode !== 201) throw new Error(`server create failed: ${res.statusCode} ${res.body}`);
  return res.json().id as number;
}

/** A live message as tests read it: any field of any message type (the union itself is checked by the service's compile). */
// biome-ignore lint/suspicious/noExplicitAny: tests read fields of every message type without narrowing
export type TestEvent = LiveEvent & Record<string, any>;

export interface EventLog {
  events: TestEvent[];
  /** Resolves with the first event (seen or coming) matching `pred`. */
  next(pred: (e: TestEvent) => boolean, ms?: number): Promise<TestEvent>;
  stop(): void;
}

export function recordEvents(t: TestApp): EventLog {
  const events: TestEvent[] = [];
  const waiters: Array<{ pred: (e: TestEvent) => boolean; resolve: (e: TestEvent) => void }> = [];
  const stop = t.app.services.events.on((live) => {
    const e = live as TestEvent;
    events.push(e);
    for (const w of [...waiters]) {
      if (w.pred(e)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(e);
      }
    }
  });
  return {
    events,
    next(pred, ms = 15_000) {
      const hit = events.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching live event')), ms);
        waiters.push({
          pred,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
    stop: () => void stop(),
  };
}

export function rmrf(...dirs: string[]): void {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
}

export async function until<T>(fn: () => Promise<T | null | undefined | false>, ms = 15_000, stepMs = 20): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/**
 * A staging directory with `small.txt` and a sparse `big.bin` of `mib` MiB: instant to make
 * locally, a real transfer to a server, long enough to act while rsync is writing it.
 */
export function bigSource(mib: number): string {
  const dir = stagingDir({ 'small.txt': 'small\n' });
  const fd = fs.openSync(path.join(dir, 'big.bin'), 'w');
  fs.ftruncateSync(fd, mib * 1024 * 1024);
  fs.closeSync(fd);
  return dir;
}

/** Whether rsync started writing `big.bin` into one of `dirs` (its temporary file is there) within `ms`. */
export async function writingBig(dirs: string[], ms = 15_000): Promise<boolean> {
  const writing = () => dirs.some((d) => fs.existsSync(d) && fs.readdirSync(d).some((n) => n.startsWith('.big.bin.')));
  const started = Date.now();
  while (!writing()) {
    if (Date.now() - started > ms) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}
