/**
 * One 500 MB file through POST /api/sync/upload (multipart, streamed from disk by curl) against
 * OpenSSH's `sftp -b` putting the same file, both into a local real sshd. Each client runs in its
 * own process, so the service's process holds only the service (an in-process client took half
 * its CPU). Reports the throughput ratio (goal >= 0.7) and the service's peak RSS growth during
 * the upload, sampled every 50 ms (goal <= 64 MB: the file must stream, never sit in memory).
 */
import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { startSshd } from '../../test/fixtures/sshd.js';
import { round, runIfMain, type Scenario } from '../lib.js';
import { api, startBenchApp } from '../support/app.js';
import { curlUpload } from '../support/curl-upload.js';

const SIZE = 500 * 1024 * 1024;
const RUNS = 2;
const run$ = promisify(execFile);

/** Written by `head` in its own process, so 500 MB of random buffers never pass through this heap. */
function writeRandomFile(file: string, size: number): void {
  execFileSync('sh', ['-c', 'head -c "$1" /dev/urandom > "$2"', 'sh', String(size), file]);
}

/** SHA-256 of a file, streamed. */
async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export const scenario: Scenario = {
  name: 'upload-500mb',
  async run() {
    const tag = crypto.randomBytes(4).toString('hex');
    const local = `/tmp/fleet-bench-upload-${tag}.bin`;
    const remoteDir = `/tmp/fleet-bench-upload-remote-${tag}`;
    const batch = `/tmp/fleet-bench-upload-${tag}.batch`;
    const sshd = await startSshd();
    const svc = await startBenchApp({ UPLOAD_MAX_BYTES: String(SIZE + 1024 * 1024) });
    try {
      writeRandomFile(local, SIZE);
      fs.mkdirSync(remoteDir);
      execFileSync('chown', [sshd.username, remoteDir]);
      const created = await api(svc, 'POST', '/api/servers', {
        name: 'bench', host: sshd.host, port: sshd.port, username: sshd.username, private_key: sshd.privateKey,
      });
      const serverId = (created as { id: number }).id;

      const upload = (file: string, name: string) =>
        curlUpload<{ size?: number }>({
          url: `${svc.url}/api/sync/upload`,
          token: svc.token,
          fields: { server_id: String(serverId), remote_path: remoteDir },
          file,
          filename: name,
          type: 'application/octet-stream',
        });
      // Warm-up: JIT, the pooled SSH connection, the first SFTP session.
      const small = `${local}.small`;
      fs.writeFileSync(small, crypto.randomBytes(1024 * 1024));
      await upload(small, 'warm.bin');
      fs.rmSync(small);

      const sftpArgs = [
        '-b', batch, '-P', String(sshd.port), '-i', sshd.privateKeyPath,
        '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'BatchMode=yes',
        '-o', 'IdentitiesOnly=yes', '-o', 'LogLevel=ERROR', `${sshd.username}@127.0.0.1`,
      ];
      fs.writeFileSync(batch, `put ${local} ${remoteDir}/via-sftp.bin\n`);

      const apiTimes: number[] = [];
      const sftpTimes: number[] = [];
      let peakGrowth = 0;
      for (let i = 0; i < RUNS; i++) {
        let t0 = performance.now();
        await run$('sftp', sftpArgs, { timeout: 600_000 });
        sftpTimes.push(performance.now() - t0);
        fs.rmSync(`${remoteDir}/via-sftp.bin`);

        global.gc?.();
        const base = process.memoryUsage().rss;
        let peak = base;
        const sampler = setInterval(() => {
          peak = Math.max(peak, process.memoryUsage().rss);
        }, 50);
        t0 = performance.now();
        const body = await upload(local, 'via-api.bin');
        apiTimes.push(performance.now() - t0);
        clearInterval(sampler);
        peakGrowth = Math.max(peakGrowth, peak - base);
        if (body.size !== SIZE || fs.statSync(`${remoteDir}/via-api.bin`).size !== SIZE) {
          throw new Error(`size mismatch: answered ${body.size}`);
        }
      }
      if ((await sha256File(local)) !== (await sha256File(`${remoteDir}/via-api.bin`))) {
        throw new Error('the uploaded bytes differ from the source');
      }

      const mbps = (ms: number) => SIZE / 1024 / 1024 / (ms / 1000);
      const apiMbps = mbps(Math.min(...apiTimes));
      const sftp = mbps(Math.min(...sftpTimes));
      const ratio = apiMbps / sftp;
      const growthMb = peakGrowth / 1024 / 1024;
      return {
        value: round(apiMbps, 1),
        unit: 'MB/s',
        baseline: round(sftp, 1),
        ratio: round(ratio, 2),
        goal: '>= 0.7 and peak RSS growth <= 64 MB',
        pass: ratio >= 0.7 && growthMb <= 64,
        details: {
          peak_rss_growth_mb: round(growthMb, 1),
          api_runs_ms: apiTimes.map((t) => round(t, 0)),
          sftp_runs_ms: sftpTimes.map((t) => round(t, 0)),
          size_bytes: SIZE,
          baseline: 'OpenSSH sftp -b (batch put), same file, same sshd',
        },
      };
    } finally {
      for (const f of [local, batch, `${local}.small`]) fs.rmSync(f, { force: true });
      fs.rmSync(remoteDir, { recursive: true, force: true });
      await svc.close();
      await sshd.stop();
    }
  },
};

await runIfMain(import.meta.url, scenario);
