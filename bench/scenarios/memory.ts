/**
 * memory: resident memory (RSS, from /proc) of the service as `npm start` runs it (the compiled
 * bundle, `node dist/server/server.js`, fresh DATA_DIR, embedded SQLite and in-process cache) against
 * a bare Fastify 5 process started the same way (plain node, one route), in the same run.
 * Goals: the service idle after start <= 1.5 × bare; after 1,000 mixed API requests reported
 * beside it; the primary of WORKERS=2 (it only supervises) <= 1.2 × bare; the peak during a
 * large ZIP upload+extract and during a large plain upload (sampled every 20 ms) <= idle + 64 MB.
 * Idle figures are the median of alternating rounds; each reading follows a settle wait.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSshd } from '../../test/fixtures/sshd.js';
import { median, round, runIfMain, type Scenario, type ScenarioResult } from '../lib.js';
import { startBareNode } from '../support/bare-node.js';
import { curlUpload } from '../support/curl-upload.js';
import { startProductionServer, type ProductionServer } from '../support/production-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Long enough for start-up garbage to be collected and the heap to stop growing. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 5000);
const REQUESTS = 1000;
const ZIP_FILES = 2000;
const PLAIN_BYTES = 200 * 1024 * 1024;
const MB = 1024 * 1024;
const CACHE_URL = process.env.BENCH_CACHE_URL ?? process.env.TEST_CACHE_URL ?? 'redis://127.0.0.1:6379';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => round(bytes / MB, 1);

/** Bare Fastify with one route, in its own plain-node process, as small as a Fastify service gets. */
const BARE = `import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(app.server.address().port + '\\n');`;

async function bareIdleRss(): Promise<number> {
  const bare = await startBareNode(BARE);
  try {
    const res = await fetch(`${bare.url}/health`);
    if (!res.ok) throw new Error(`bare Fastify answered ${res.status}`);
    await sleep(SETTLE_MS);
    return bare.rss();
  } finally {
    await bare.stop();
  }
}

async function settledRss(svc: ProductionServer): Promise<number> {
  await sleep(SETTLE_MS);
  return svc.rss();
}

/** Real service, background work on (as `npm start` runs it). */
const serviceEnv = (extra: Record<string, string> = {}) => ({ FLEET_BACKGROUND_JOBS: '1', ...extra });

/** 1,000 requests a console session makes (lists, settings, servers, health), 8 at a time. */
async function mixedRequests(svc: ProductionServer): Promise<void> {
  const paths = ['/health', '/api/servers', '/api/settings', '/api/dashboard', '/api/audit', '/api/alert-history/active', '/api/servers/tags', '/api/settings/schema'];
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const p = paths[next++ % paths.length];
      const res = await fetch(`${svc.url}${p}`, { headers: { authorization: `Bearer ${svc.token}` } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${p} answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** The highest RSS of `svc`, sampled every 20 ms while `work` runs. */
async function peakDuring(svc: ProductionServer, work: () => Promise<unknown>): Promise<number> {
  let peak = svc.rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, svc.rss());
  }, 20);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, svc.rss());
}

async function uploadPeaks(work: string): Promise<{ idle: number; zipPeak: number; plainPeak: number }> {
  const tree = path.join(work, 'tree');
  const archive = path.join(work, 'big.zip');
  const plain = path.join(work, 'plain.bin');
  // Generated in their own processes: the buffers must not pass through this heap.
  execFileSync(process.execPath, ['--import', 'tsx', path.join(here, '../support/zip-tree.ts'), tree, String(ZIP_FILES)], { stdio: 'inherit' });
  execFileSync('zip', ['-q', '-r', archive, '.'], { cwd: tree });
  fs.rmSync(tree, { recursive: true, force: true });
  execFileSync('sh', ['-c', 'head -c "$1" /dev/urandom > "$2"', 'sh', String(PLAIN_BYTES), plain]);

  const sshd = await startSshd();
  // Outside `work` (0700, root's): the SSH login user writes here.
  const remoteDir = `/tmp/fleet-bench-memory-remote-${crypto.randomBytes(4).toString('hex')}`;
  fs.mkdirSync(remoteDir);
  execFileSync('chown', [sshd.username, remoteDir]);
  const svc = await startProductionServer(serviceEnv({ STAGING_PREFIX: path.join(work, 'svc_upload_'), UPLOAD_MAX_BYTES: String(PLAIN_BYTES + MB) }));
  try {
    const idle = await settledRss(svc);
    const zipPeak = await peakDuring(svc, async () => {
      const r = await curlUpload<{ file_count?: number }>({
        url: `${svc.url}/api/sync/upload-zip`, token: svc.token, fields: {}, file: archive, filename: 'big.zip', type: 'application/zip',
      });
      if (r.file_count !== ZIP_FILES) throw new Error(`expected ${ZIP_FILES} files, got ${r.file_count}`);
    });
    const created = await fetch(`${svc.url}/api/servers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'mem', host: sshd.host, port: sshd.port, username: sshd.username, private_key: sshd.privateKey }),
    });
    if (!created.ok) throw new Error(`POST /api/servers answered ${created.status}`);
    const serverId = ((await created.json()) as { id: number }).id;
    const plainPeak = await peakDuring(svc, async () => {
      const r = await curlUpload<{ size?: number }>({
        url: `${svc.url}/api/sync/upload`, token: svc.token, fields: { server_id: String(serverId), remote_path: remoteDir },
        file: plain, filename: 'plain.bin', type: 'application/octet-stream',
      });
      if (r.size !== PLAIN_BYTES) throw new Error(`plain upload answered size ${r.size}`);
    });
    return { idle, zipPeak, plainPeak };
  } finally {
    await svc.stop();
    await sshd.stop();
    fs.rmSync(remoteDir, { recursive: true, force: true });
  }
}

async function run(): Promise<ScenarioResult> {
  const bare: number[] = [];
  const idle: number[] = [];
  const afterRequests: number[] = [];
  const primary: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Alternating order, so neither side always starts on a busier machine.
    if (i % 2) bare.push(await bareIdleRss());
    const svc = await startProductionServer(serviceEnv());
    try {
      idle.push(await settledRss(svc));
      await mixedRequests(svc);
      afterRequests.push(await settledRss(svc));
    } finally {
      await svc.stop();
    }
    if (i % 2 === 0) bare.push(await bareIdleRss());
    const cluster = await startProductionServer(serviceEnv({ WORKERS: '2', CACHE_URL, CACHE_PREFIX: `bench-memory-${crypto.randomUUID()}:` }));
    try {
      primary.push(await settledRss(cluster));
    } finally {
      await cluster.stop();
    }
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
  let peaks: Awaited<ReturnType<typeof uploadPeaks>>;
  try {
    peaks = await uploadPeaks(work);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }

  const b = median(bare);
  const idleRatio = median(idle) / b;
  const primaryRatio = median(primary) / b;
  const zipOver = (peaks.zipPeak - peaks.idle) / MB;
  const plainOver = (peaks.plainPeak - peaks.idle) / MB;
  return {
    value: mb(median(idle)),
    unit: 'MB',
    baseline: mb(b),
    ratio: round(idleRatio, 2),
    goal: 'idle <= 1.5 × bare, primary (WORKERS=2) <= 1.2 × bare, ZIP and plain upload peaks <= idle + 64 MB',
    pass: idleRatio <= 1.5 && primaryRatio <= 1.2 && zipOver <= 64 && plainOver <= 64,
    rounds: ROUNDS,
    details: {
      bare_idle_mb: bare.map(mb),
      service_idle_mb: idle.map(mb),
      service_after_requests_mb: afterRequests.map(mb),
      after_requests_ratio: round(median(afterRequests) / b, 2),
      primary_idle_mb: primary.map(mb),
      primary_ratio: round(primaryRatio, 2),
      upload_service_idle_mb: mb(peaks.idle),
      zip_peak_mb: mb(peaks.zipPeak),
      zip_peak_over_idle_mb: round(zipOver, 1),
      plain_peak_mb: mb(peaks.plainPeak),
      plain_peak_over_idle_mb: round(plainOver, 1),
      settle_ms: SETTLE_MS,
      requests: REQUESTS,
      zip_files: ZIP_FILES,
      plain_bytes: PLAIN_BYTES,
    },
  };
}

export const scenario: Scenario = { name: 'memory', run };

await runIfMain(import.meta.url, scenario);
