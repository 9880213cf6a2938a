/**
 * What the push benchmarks share: N loopback sshd targets (all logging in as the fixture's test
 * user, so each target gets its own directory under that home), a generated source tree in
 * staging, the product's push through the HTTP API, and the baselines it is compared with —
 * plain `rsync -a` and prsync, launched in parallel with the very same ssh options.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { prepareRsyncSsh, type RsyncSsh } from '../../src/adapters/rsync/index.js';
import { startSshd, targetFor, type SshdInstance } from '../../test/fixtures/sshd.js';
import { api, type BenchApp } from './app.js';

export interface Fleet {
  targets: SshdInstance[];
  /** ssh command lines (key auth, pinned host key) for the baselines, one per target. */
  ssh: RsyncSsh[];
  stop(): Promise<void>;
}

export async function startFleet(n: number): Promise<Fleet> {
  const targets: SshdInstance[] = [];
  for (let i = 0; i < n; i++) targets.push(await startSshd());
  const ssh = await Promise.all(targets.map((t) => prepareRsyncSsh(targetFor(t, 'key'), { hostPublicKey: t.hostPublicKey })));
  return {
    targets,
    ssh,
    async stop() {
      await Promise.all(ssh.map((s) => s.cleanup()));
      await Promise.all(targets.map((t) => t.stop()));
    },
  };
}

/** `files` files totalling about `totalBytes`, spread over 20 subdirectories, in a fresh staging dir. */
export function makeSourceTree(files: number, totalBytes: number): string {
  const dir = fs.mkdtempSync('/tmp/svc_upload_bench');
  const each = Math.max(1, Math.floor(totalBytes / files));
  for (let i = 0; i < files; i++) {
    const sub = path.join(dir, `d${i % 20}`);
    if (i < 20) fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `f${i}.bin`), randomBytes(each));
  }
  return dir;
}

/** Pulls the tree into the page cache so neither side pays the first read. */
export function warm(dir: string): void {
  execFileSync('sh', ['-c', `find '${dir}' -type f -exec cat {} + > /dev/null`]);
}

export function rmDirs(dirs: string[]): void {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
}

/** Flushes dirty pages, so one run's writeback does not slow down the next one measured. */
export function settle(): void {
  execFileSync('sync');
}

export interface Pair {
  api: number;
  rsync: number;
  order: 'rsync-first' | 'api-first';
}

/**
 * Runs both sides `rounds` times, alternating which goes first (the second of two back-to-back
 * runs measurably profits from the first), and settling the disk before each.
 */
export async function alternate(
  rounds: number,
  before: () => void,
  base: () => Promise<number>,
  product: () => Promise<number>,
): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (let r = 0; r < rounds; r++) {
    before();
    settle();
    let b: number;
    let p: number;
    if (r % 2 === 0) {
      b = await base();
      settle();
      p = await product();
    } else {
      p = await product();
      settle();
      b = await base();
    }
    pairs.push({ api: p, rsync: b, order: r % 2 === 0 ? 'rsync-first' : 'api-first' });
  }
  return pairs;
}

/** Total product time over total baseline time: with balanced orders, the order effect cancels. */
export function ratioOfSums(pairs: Pair[]): number {
  return pairs.reduce((n, x) => n + x.api, 0) / pairs.reduce((n, x) => n + x.rsync, 0);
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    // Own session, like the product's rsync: with scheduler autogroups both sides then get the same CPU share.
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env, LC_ALL: 'C' }, detached: true });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-2000);
    });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err.slice(-500)}`))));
  });
}

/** Wall time of one plain `rsync -a` per target, all launched at once. */
export async function plainRsync(fleet: Fleet, src: string, dests: string[]): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    fleet.targets.map((t, i) =>
      run('rsync', ['-a', '-e', fleet.ssh[i].sshCommand, `${src}/`, `${t.username}@${t.host}:${dests[i]}/`], fleet.ssh[i].env),
    ),
  );
  return performance.now() - t0;
}

/**
 * Wall time of prsync (Debian's `parallel-rsync`): one invocation per target, all at once,
 * because every loopback target shares one home directory and prsync sends all hosts to one
 * remote path. Null when prsync is not installed (and cannot be, without root).
 */
export async function prsync(fleet: Fleet, src: string, dests: string[]): Promise<number | null> {
  const bin = ensurePrsync();
  if (!bin) return null;
  const t0 = performance.now();
  await Promise.all(
    fleet.targets.map((t, i) => {
      // prsync adds `-e "ssh -p PORT ..."` itself; our options go in through -S (its ssh args).
      const sshOpts = fleet.ssh[i].sshCommand.split("' '").map((w) => w.replaceAll("'", '')).slice(1);
      const withoutPort = sshOpts.filter((w, j) => !(w === '-p' || sshOpts[j - 1] === '-p'));
      return run(bin, ['-a', '-p', '1', '-H', `${t.username}@${t.host}:${t.port}`, '-S', withoutPort.join(' '), `${src}/`, `${dests[i]}/`], fleet.ssh[i].env);
    }),
  );
  return performance.now() - t0;
}

let prsyncBin: string | null | undefined;
function ensurePrsync(): string | null {
  if (prsyncBin !== undefined) return prsyncBin;
  const find = () => ['/usr/bin/parallel-rsync', '/usr/bin/prsync'].find((p) => fs.existsSync(p)) ?? null;
  prsyncBin = find();
  if (!prsyncBin && process.getuid?.() === 0) {
    try {
      execFileSync('sh', ['-c', 'apt-get install -y pssh || (apt-get update && apt-get install -y pssh)'], {
        stdio: 'ignore',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        timeout: 300_000,
      });
    } catch {
      // reported as unavailable
    }
    prsyncBin = find();
  }
  return prsyncBin;
}

/** Registers one server per target, each with its own target directory. */
export async function registerServers(app: BenchApp, fleet: Fleet, dests: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, t] of fleet.targets.entries()) {
    const res = await api(app, 'POST', '/api/servers', {
      name: `bench-${i}`, host: t.host, port: t.port, username: t.username, private_key: t.privateKey,
      host_key_fingerprint: t.hostKeyFingerprint, target_path: dests[i],
    });
    ids.push((res as { id: number }).id);
  }
  return ids;
}

/** Wall time of one synchronous push through the API, and its answer. */
export async function apiPush(app: BenchApp, ids: number[], src: string, concurrency: number): Promise<{ ms: number; batch: Record<string, unknown> }> {
  const t0 = performance.now();
  const batch = (await api(app, 'POST', '/api/sync/files', { server_ids: ids, source_path: src, concurrency })) as Record<string, unknown>;
  const ms = performance.now() - t0;
  if (batch.status !== 'completed') throw new Error(`push did not complete: ${JSON.stringify(batch).slice(0, 1000)}`);
  return { ms, batch };
}
