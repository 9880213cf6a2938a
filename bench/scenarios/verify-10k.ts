/**
 * POST /api/sync/verify over 10,000 files / 200 MB against one loopback sshd, divided by the
 * baseline measured in the same run: `xargs -0 sha256sum` over the same files locally and
 * `ssh host 'cd dir && xargs -0 sha256sum'` remotely (through an OpenSSH ControlMaster opened
 * beforehand, as the service's connection is pooled) started at the same time, as the service
 * runs them. Rounds alternate which side goes first; figures are medians. Goal <= 1.3.
 */
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { startSshd } from '../../test/fixtures/sshd.js';
import { median, round, runIfMain, type Scenario } from '../lib.js';
import { api, startBenchApp } from '../support/app.js';
import { sshClient } from '../support/ssh-mux.js';

const FILES = 10_000;
const FILE_SIZE = 20 * 1024; // 10,000 × 20 KiB ≈ 200 MB
const DIRS = 100;
const ROUNDS = 5;

/** Runs a command feeding `stdin`, discarding its output; resolves with the wall time in ms. */
function timed(cmd: string, args: string[], stdin: Buffer, cwd?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${cmd} exited ${code}: ${stderr}`))));
    child.stdin.end(stdin);
  });
}

export const scenario: Scenario = {
  name: 'verify-10k',
  async run() {
    const tag = crypto.randomBytes(4).toString('hex');
    const prefix = `/tmp/svc_upload_bench${tag}_`;
    const src = `${prefix}src`;
    const remote = `/tmp/fleet-bench-verify-remote-${tag}`;
    const sshd = await startSshd();
    const client = sshClient(sshd);
    const svc = await startBenchApp({ STAGING_PREFIX: prefix });
    try {
      const rels: string[] = [];
      const block = crypto.randomBytes(FILE_SIZE * 4);
      for (let d = 0; d < DIRS; d++) fs.mkdirSync(path.join(src, `dir-${d}`), { recursive: true });
      for (let i = 0; i < FILES; i++) {
        const rel = `dir-${i % DIRS}/file-${i}.bin`;
        const off = (i * 7919) % (block.length - FILE_SIZE);
        const content = Buffer.concat([Buffer.from(`${i}:`), block.subarray(off, off + FILE_SIZE - 16)]);
        fs.writeFileSync(path.join(src, rel), content);
        rels.push(rel);
      }
      // Same machine: "pushing" is a copy.
      execFileSync('cp', ['-a', src, remote]);
      execFileSync('chown', ['-R', sshd.username, remote]);
      const totalBytes = rels.reduce((n, r) => n + fs.statSync(path.join(src, r)).size, 0);

      const auth = { authorization: `Bearer ${svc.token}` };
      const created = await api(svc, 'POST', '/api/servers', {
        name: 'bench', host: sshd.host, port: sshd.port, username: sshd.username, private_key: sshd.privateKey,
      });
      const serverId = (created as { id: number }).id;
      const verify = async (): Promise<number> => {
        const t0 = performance.now();
        const res = await request(`${svc.url}/api/sync/verify`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ source_path: src, server_ids: [serverId], target_path: remote, max_files: FILES }),
        });
        const body = (await res.body.json()) as { total_local_files: number; results: Record<string, { matched?: number; error?: string }> };
        const ms = performance.now() - t0;
        const r = body.results?.[String(serverId)];
        if (res.statusCode !== 200 || body.total_local_files !== FILES || r?.matched !== FILES) {
          throw new Error(`verify answered ${res.statusCode}: ${JSON.stringify(body).slice(0, 300)}`);
        }
        return ms;
      };

      const list = Buffer.from(`${rels.join('\0')}\0`);
      const remoteArgs = [...client.mux, client.dest, `cd '${remote}' && xargs -0 sha256sum --`];
      const baseline = async (): Promise<{ both: number; local: number; remote: number }> => {
        const t0 = performance.now();
        const [local, rem] = await Promise.all([timed('xargs', ['-0', 'sha256sum', '--'], list, src), timed(client.ssh, remoteArgs, list)]);
        return { both: performance.now() - t0, local, remote: rem };
      };

      // Warm-up: page cache for both trees, JIT, the pooled SSH connection and the ssh master.
      await client.open();
      await baseline();
      await verify();
      const apiRuns: number[] = [];
      const baseRuns: Array<{ both: number; local: number; remote: number }> = [];
      for (let i = 0; i < ROUNDS; i++) {
        if (i % 2 === 0) {
          baseRuns.push(await baseline());
          apiRuns.push(await verify());
        } else {
          apiRuns.push(await verify());
          baseRuns.push(await baseline());
        }
      }
      const apiMs = median(apiRuns);
      const base = median(baseRuns.map((b) => b.both));
      const ratio = apiMs / base;
      return {
        value: round(apiMs, 0),
        unit: 'ms',
        baseline: round(base, 0),
        ratio: round(ratio, 2),
        goal: '<= 1.3',
        pass: ratio <= 1.3,
        rounds: ROUNDS,
        details: {
          files: FILES,
          total_bytes: totalBytes,
          api_runs_ms: apiRuns.map((t) => round(t, 0)),
          baseline_runs_ms: baseRuns.map((b) => ({ both: round(b.both, 0), local: round(b.local, 0), remote: round(b.remote, 0) })),
          baseline: 'local xargs -0 sha256sum and ssh (ControlMaster, opened before) xargs -0 sha256sum, started together; wall time of both',
          ratio_rule: 'median API time / median baseline time over rounds alternating which goes first',
        },
      };
    } finally {
      fs.rmSync(src, { recursive: true, force: true });
      fs.rmSync(remote, { recursive: true, force: true });
      await client.close();
      await svc.close();
      await sshd.stop();
    }
  },
};

await runIfMain(import.meta.url, scenario);
