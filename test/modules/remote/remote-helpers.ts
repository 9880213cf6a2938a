/**
 * Shared set-up for the remote-operation tests: a real app with its own staging prefix, servers
 * registered through the API against the suite's real sshd, and scratch directories on the
 * "remote" side. The sshd runs on this machine as the throwaway user `fleettest`, so the tests
 * check the remote filesystem directly.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { expect, inject } from 'vitest';
import { freePort, type SshdInfo } from '../../fixtures/sshd.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import type { DbKind } from '../../helpers/targets.js';

export const sshd: SshdInfo = inject('sshd');

let ids: { uid: number; gid: number } | null = null;
/** uid/gid of the sshd login user, so scratch directories can be handed to it. */
export function remoteUser(): { uid: number; gid: number } {
  if (!ids) {
    const uid = Number(execFileSync('id', ['-u', sshd.username], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', sshd.username], { encoding: 'utf8' }).trim());
    ids = { uid, gid };
  }
  return ids;
}

export interface RemoteTestApp {
  t: TestApp;
  stagingPrefix: string;
  /** A server registered through POST /api/servers (key auth). */
  serverId: number;
  post(url: string, payload: unknown): Promise<LightMyRequestResponse>;
  createServer(body: Record<string, unknown>): Promise<number>;
  /** A server whose port nobody listens on. */
  deadServer(name?: string): Promise<number>;
  /** A fresh staging directory (inside this app's prefix). */
  stagingDir(): string;
  /** A fresh directory owned by the sshd user (the "remote" side). */
  remoteDir(): string;
  audit(action: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export async function remoteTestApp(db: DbKind, env: Record<string, string> = {}): Promise<RemoteTestApp> {
  const tag = crypto.randomBytes(5).toString('hex');
  const stagingPrefix = `/tmp/svc_upload_t${tag}_`;
  const t = await makeTestApp({ db, env: { STAGING_PREFIX: stagingPrefix, ...env } });
  const cleanup: string[] = [];
  const headers = await t.auth();

  const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers, payload: payload as object });
  const createServer = async (body: Record<string, unknown>): Promise<number> => {
    const res = await post('/api/servers', {
      host: sshd.host, port: sshd.port, username: sshd.username, private_key: sshd.privateKey, ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const serverId = await createServer({ name: `sshd-${tag}` });
  let n = 0;

  return {
    t,
    stagingPrefix,
    serverId,
    post,
    createServer,
    async deadServer(name = `dead-${tag}-${n++}`) {
      return createServer({ name, port: await freePort() });
    },
    stagingDir() {
      const dir = `${stagingPrefix}${n++}`;
      fs.mkdirSync(dir, { recursive: true });
      cleanup.push(dir);
      return dir;
    },
    remoteDir() {
      const dir = path.join('/tmp', `fleet-remote-${tag}-${n++}`);
      fs.mkdirSync(dir, { mode: 0o755 });
      const { uid, gid } = remoteUser();
      fs.chownSync(dir, uid, gid);
      cleanup.push(dir);
      return dir;
    },
    async audit(action: string) {
      const res = await t.app.inject({ method: 'GET', url: `/api/audit?action=${action}&limit=500`, headers });
      return res.json().items as Array<Record<string, unknown>>;
    },
    async close() {
      for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
      await t.close();
    },
  };
}

/** Writes a file on the "remote" side owned by the sshd user. */
export function writeRemote(file: string, content: string | Buffer): void {
  const { uid, gid } = remoteUser();
  const parent = path.dirname(file);
  const first = fs.mkdirSync(parent, { recursive: true });
  // Hand every directory just created to the sshd user, from the first one down.
  for (let d = parent; first && d.length >= first.length; d = path.dirname(d)) fs.chownSync(d, uid, gid);
  fs.writeFileSync(file, content);
  fs.chownSync(file, uid, gid);
}

export { hostileNames } from '../../fixtures/hostile-names.js';

export function markerPath(): string {
  return `/tmp/fleet-remote-marker-${crypto.randomBytes(6).toString('hex')}`;
}
