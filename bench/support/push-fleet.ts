/**
 * What the push benchmarks share: N loopback sshd targets, each logging in as its own user (so a
 * relative path lands in a different home on each, as on N real hosts), a generated source tree
 * in staging, the product's push through the HTTP API, and the peers it is compared with — plain
 * `rsync -a` per target launched in parallel, and one prsync over all targets — with the same ssh
 * options as the product's rsync.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { prepareRsyncSsh, rsyncCommand, runnerArgv, type RsyncSsh } from '../../src/adapters/rsync/index.js';
import { startSshd, targetFor, type SshdInstance } from '../../test/fixtures/sshd.js';
import { median } from '../lib.js';
import { api, type BenchApp } from './app.js';
import { requireTool } from './tools.js';

export interface Fleet {
  targets: SshdInstance[];
  /** ssh command lines (key auth, pinned host key) for the baselines, one per target. */
  ssh: RsyncSsh[];
  /** An ssh_config naming target i `fleet-bench-i`, with the product's options, for prsync. */
  sshConfig: string;
  /** `<home of target i>/<name>`: the same relative directory on every target. */
  dirs(name: string): string[];
  stop(): Promise<void>;
}

/**
 * The options the product's rsync passes to ssh (src/adapters/rsync/rsync-transport.ts), as
 * ssh_config lines; only the per-target ones (port, user, key) differ and go in Host blocks.
 */
const PRODUCT_SSH_OPTIONS = [
  'StrictHostKeyChecking yes', 'GlobalKnownHostsFile /dev/null', 'CheckHostIP no', 'UpdateHostKeys no',
  'IdentitiesOnly yes', 'IdentityAgent none', 'ConnectTimeout 10', 'ServerAliveInterval 15', 'ServerAliveCountMax 3',
  'ControlMaster no', 'ControlPath none', 'ForwardAgent no', 'ForwardX11 no', 'LogLevel ERROR', 'BatchMode yes',
  'PreferredAuthentications publickey', 'PasswordAuthentication no', 'KbdInteractiveAuthentication no',
];

export async function startFleet(n: number): Promise<Fleet> {
  const targets: SshdInstance[] = [];
  for (let i = 0; i < n; i++) targets.push(await startSshd({ username: `fleetbench${i}` }));
  const ssh = await Promise.all(targets.map((t) => prepareRsyncSsh(targetFor(t, 'key'), { hostPublicKey: t.hostPublicKey })));
  const cfgDir = fs.mkdtempSync('/tmp/fleet-bench-prsync-');
  const knownHosts = path.join(cfgDir, 'known_hosts');
  fs.writeFileSync(knownHosts, targets.map((t) => `[${t.host}]:${t.port} ${t.hostPublicKey}\n`).join(''), { mode: 0o600 });
  const hosts = targets.map((t, i) =>
    [`Host fleet-bench-${i}`, `  HostName ${t.host}`, `  Port ${t.port}`, `  User ${t.username}`, `  IdentityFile ${t.privateKeyPath}`].join('\n'),
  );
  const all = ['Host *', `  UserKnownHostsFile ${knownHosts}`, ...PRODUCT_SSH_OPTIONS.map((o) => `  ${o}`)].join('\n');
  const sshConfig = path.join(cfgDir, 'ssh_config');
  fs.writeFileSync(sshConfig, `${hosts.join('\n')}\n${all}\n`, { mode: 0o600 });
  return {
    targets,
    ssh,
    sshConfig,
    dirs: (name) => targets.map((t) => `${t.homeDir}/${name}`),
    async stop() {
      await Promise.all(ssh.map((s) => s.cleanup()));
      await Promise.all(targets.map((t) => t.stop()));
      fs.rmSync(cfgDir, { recursive: true, force: true });
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

/** One round: each side's wall time in ms, and the order they ran in. */
export interface Round {
  ms: Record<string, number>;
  order: string[];
}

/**
 * Runs every side `rounds` times, rotating which goes first (the second of two back-to-back
 * runs measurably profits from the first). Before each side: `before(side)` (e.g. removing that
 * side's previous copy, so every side pays for its own deletion and none for another's), then a
 * disk settle.
 */
export async function rotate(rounds: number, before: (side: string) => void, sides: Record<string, () => Promise<number>>): Promise<Round[]> {
  const names = Object.keys(sides);
  const out: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    const order = names.map((_, i) => names[(i + r) % names.length]);
    const ms: Record<string, number> = {};
    for (const name of order) {
      before(name);
      settle();
      ms[name] = await sides[name]();
    }
    out.push({ ms, order });
  }
  return out;
}

/** Median over rounds of `a`'s time over `b`'s in the same round: paired, so load drifts cancel. */
export function pairedRatio(rounds: Round[], a: string, b: string): number {
  return median(rounds.map((r) => r.ms[a] / r.ms[b]));
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
 * Wall time of the product's own rsync command line per target (the runner's argv: its remote
 * wrapper with the mkdir and the stall watchdog, progress, stats, --timeout; started through
 * setpriv where the product does), all launched at once from here, without the service: what the
 * push costs before any of the service's own work.
 */
export async function productRsync(fleet: Fleet, src: string, dests: string[], stallTimeoutSec: number): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    fleet.targets.map(async (t, i) => {
      const argv = runnerArgv({ source: src, remotePath: dests[i], mode: 'incremental' }, targetFor(t, 'key'), fleet.ssh[i].sshCommand, stallTimeoutSec, true);
      const [cmd, args] = await rsyncCommand(argv);
      return run(cmd, args, fleet.ssh[i].env);
    }),
  );
  return performance.now() - t0;
}

/**
 * Wall time of one prsync (Debian's `parallel-rsync`) over all targets at once (`-p` = targets),
 * into `dir` relative to each target's home, through `fleet.sshConfig`.
 */
export async function prsync(fleet: Fleet, src: string, dir: string): Promise<number> {
  const bin = requireTool(['/usr/bin/parallel-rsync', '/usr/bin/prsync'], 'pssh');
  const hosts = fleet.targets.map((_, i) => `fleet-bench-${i}`).join(' ');
  const t0 = performance.now();
  await run(bin, ['-a', '-t', '0', '-p', String(fleet.targets.length), '-H', hosts, '-S', `-F ${fleet.sshConfig}`, `${src}/`, `${dir}/`]);
  return performance.now() - t0;
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
