/**
 * zip-extract: a ~300 MB archive of 5,000 files (half random, half text) uploaded by `curl` (its
 * own process, streamed from disk) to the service's /api/sync/upload-zip, which stores and
 * extracts it, against the peer doing the same job with the plainest tools: the same `curl`
 * upload to a bare Fastify route (plain node, @fastify/multipart) that only stores the file, then
 * `unzip -q` of the stored file. Both run as built, each in its own process; median of 5
 * alternating rounds. Goals: service / peer <= 1.3, and the service's peak RSS during an upload
 * (sampled every 20 ms) <= its idle RSS + 64 MB.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, round, runIfMain, type Scenario, type ScenarioResult } from '../lib.js';
import { startBareNode } from '../support/bare-node.js';
import { curlUpload } from '../support/curl-upload.js';
import { startProductionServer } from '../support/production-server.js';

const FILES = 5000;
/** File creation cost on this kind of VM drifts between runs; five alternating rounds steady the medians. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const here = path.dirname(fileURLToPath(import.meta.url));

function timeCommand(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${cmd} exited ${code}`))));
  });
}

type UploadZipResult = { source_path?: string; file_count?: number };

/** The peer's server: one route that streams the uploaded file to STORE_DIR and answers its size. */
const BARE_STORE = `import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import Fastify from 'fastify';
import multipart from '@fastify/multipart';
const app = Fastify({ logger: false });
await app.register(multipart, { limits: { fileSize: 1024 ** 3 } });
app.post('/store', async (req) => {
  const file = await req.file();
  const dest = process.env.STORE_DIR + '/upload.zip';
  await pipeline(file.file, fs.createWriteStream(dest));
  return { path: dest, size: fs.statSync(dest).size };
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(app.server.address().port + '\\n');`;

const MB = 1024 * 1024;

async function run(): Promise<ScenarioResult> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-zip-'));
  const prefix = path.join(work, 'svc_upload_');
  const tree = path.join(work, 'tree');
  const archive = path.join(work, 'bench.zip');
  const storeDir = path.join(work, 'peer');
  fs.mkdirSync(storeDir);
  const svc = await startProductionServer({ STAGING_PREFIX: prefix, FLEET_BACKGROUND_JOBS: '1' });
  const bare = await startBareNode(BARE_STORE, { STORE_DIR: storeDir });
  try {
    // In its own process: 370 MB of generated buffers must not pass through this heap.
    execFileSync(process.execPath, ['--import', 'tsx', path.join(here, '../support/zip-tree.ts'), tree, String(FILES)], {
      stdio: 'inherit',
    });
    execFileSync('zip', ['-q', '-r', archive, '.'], { cwd: tree });
    fs.rmSync(tree, { recursive: true, force: true });
    const archiveSize = fs.statSync(archive).size;
    // Settled before the idle reading: start-up garbage collected, the heap no longer growing.
    await new Promise((r) => setTimeout(r, 5000));
    const idle = svc.rss();
    let peak = idle;

    const serviceMs: number[] = [];
    const peerMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order so neither side always gets the warmer page cache.
      for (const side of round % 2 ? ['peer', 'service'] : ['service', 'peer']) {
        if (side === 'peer') {
          const out = path.join(work, 'unzip-out');
          const t0 = performance.now();
          const stored = await curlUpload<{ path: string; size: number }>({
            url: `${bare.url}/store`, token: '', fields: {}, file: archive, filename: 'bench.zip', type: 'application/zip',
          });
          if (stored.size !== archiveSize) throw new Error(`the peer stored ${stored.size} of ${archiveSize} bytes`);
          await timeCommand('unzip', ['-q', stored.path, '-d', out]);
          peerMs.push(performance.now() - t0);
          fs.rmSync(out, { recursive: true, force: true });
          fs.rmSync(stored.path, { force: true });
          continue;
        }
        const sampler = setInterval(() => {
          peak = Math.max(peak, svc.rss());
        }, 20);
        const t0 = performance.now();
        try {
          const result = await curlUpload<UploadZipResult>({
            url: `${svc.url}/api/sync/upload-zip`, token: svc.token, fields: {}, file: archive, filename: 'bench.zip', type: 'application/zip',
          });
          serviceMs.push(performance.now() - t0);
          if (result.file_count !== FILES) throw new Error(`expected ${FILES} files, got ${result.file_count}`);
          fs.rmSync(result.source_path!, { recursive: true, force: true });
        } finally {
          clearInterval(sampler);
        }
      }
    }

    const service = median(serviceMs);
    const peer = median(peerMs);
    const ratio = service / peer;
    const overIdle = (peak - idle) / MB;
    return {
      value: Math.round(service),
      unit: 'ms',
      baseline: Math.round(peer),
      ratio: round(ratio, 3),
      goal: 'ratio <= 1.3 and peak RSS of the service <= idle + 64 MB',
      pass: ratio <= 1.3 && overIdle <= 64,
      rounds: ROUNDS,
      details: {
        archive_bytes: archiveSize,
        files: FILES,
        service_ms: serviceMs.map(Math.round),
        peer_ms: peerMs.map(Math.round),
        // Each round's two runs are back to back, so their ratio shares the filesystem's state.
        round_ratios: serviceMs.map((ms, i) => round(ms / peerMs[i], 2)),
        service_rss_idle_mb: round(idle / MB, 1),
        service_rss_peak_mb: round(peak / MB, 1),
        service_rss_over_idle_mb: round(overIdle, 1),
        peer: 'curl upload to a bare Fastify route (@fastify/multipart) that stores the file, then unzip -q',
      },
    };
  } finally {
    await bare.stop();
    await svc.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export const scenario: Scenario = { name: 'zip-extract', run };

await runIfMain(import.meta.url, scenario);
