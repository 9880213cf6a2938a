/**
 * validate-10k: POST /api/sync/validate-source-path (through inject, with a real login) on a
 * staging directory of 10,000 files, against `find DIR -type f | wc -l` spawned via sh.
 * Goal: service median / find median <= 3. The service also stats every file for its size;
 * find with -type f does not need to (it reads the type from the directory entry).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { median, runIfMain, type Scenario, type ScenarioResult } from '../lib.js';

const FILES = 10_000;
const ROUNDS = 15;
const PASSWORD = 'bench-password-1';

function timeFind(dir: string): Promise<{ ms: number; count: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('sh', ['-c', 'find "$1" -type f | wc -l', 'sh', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve({ ms: performance.now() - t0, count: Number(out.trim()) }) : reject(new Error(`find exited ${code}`)),
    );
  });
}

async function run(): Promise<ScenarioResult> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-validate-'));
  const prefix = path.join(work, 'svc_upload_');
  const source = `${prefix}bench10k0000`;
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(source, `d${i % 50}`, `s${i % 4}`);
    if (i < 200) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.txt`), 'x'.repeat(i % 200));
  }
  const app = await buildApp(
    loadConfig({
      DATA_DIR: path.join(work, 'data'),
      STAGING_PREFIX: prefix,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'silent',
      FLEET_BACKGROUND_JOBS: '0',
    }),
    { print: () => {} },
  );
  try {
    await app.ready();
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: PASSWORD },
    });
    const headers = { authorization: `Bearer ${login.json().access_token}` };
    const validate = async () => {
      const t0 = performance.now();
      const res = await app.inject({ method: 'POST', url: '/api/sync/validate-source-path', payload: { path: source }, headers });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`validate failed: ${res.statusCode} ${res.body}`);
      return { ms, count: res.json().file_count as number };
    };

    // One warm-up each: both sides then read a warm dentry/inode cache.
    await validate();
    await timeFind(source);
    const serviceMs: number[] = [];
    const findMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const s = await validate();
      const f = await timeFind(source);
      if (s.count !== FILES || f.count !== FILES) throw new Error(`counts differ: service ${s.count}, find ${f.count}`);
      serviceMs.push(s.ms);
      findMs.push(f.ms);
    }
    const service = median(serviceMs);
    const find = median(findMs);
    const ratio = service / find;
    return {
      value: Number(service.toFixed(1)),
      unit: 'ms',
      baseline: Number(find.toFixed(1)),
      ratio: Number(ratio.toFixed(3)),
      goal: 'ratio <= 3',
      pass: ratio <= 3,
      rounds: ROUNDS,
      details: {
        files: FILES,
        service_min_ms: Number(Math.min(...serviceMs).toFixed(1)),
        find_min_ms: Number(Math.min(...findMs).toFixed(1)),
        note: 'service = inject incl. auth and audit write, stats every file for size_bytes; find only reads d_type',
      },
    };
  } finally {
    await app.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export const scenario: Scenario = { name: 'validate-10k', run };

await runIfMain(import.meta.url, scenario);
