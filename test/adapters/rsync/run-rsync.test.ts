import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runRsync } from '../../../src/adapters/rsync/run-rsync.js';
import { pidsWithArg } from '../../helpers/service-process.js';
import { until } from '../../modules/push/push-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-run-rsync-'));
afterAll(() => {
  for (const pid of pidsWithArg(dir)) process.kill(pid, 'SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('runRsync', () => {
  it('copies, and answers with the exit code and the stats', async () => {
    fs.writeFileSync(path.join(dir, 'small.txt'), 'hello');
    const r = await runRsync(['-a', '--stats', path.join(dir, 'small.txt'), path.join(dir, 'small-copy.txt')], {});
    expect(r.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'small-copy.txt'), 'utf8')).toBe('hello');
    expect(r.stats?.regularFilesTransferred).toBe(1);
  });

  it("names a failure by rsync's exit code and what it printed", async () => {
    const r = await runRsync(['-a', path.join(dir, 'missing'), path.join(dir, 'nowhere')], {});
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain('No such file or directory');
  });

  // rsync runs in its own process group (so a cancel reaches its ssh child); a service killed
  // outright must not leave it running, writing to a server the restarted service recovers.
  it('does not outlive the process that started it, even one killed with SIGKILL', async () => {
    const src = path.join(dir, 'slow-src.bin');
    fs.writeFileSync(src, Buffer.alloc(4 * 1024 * 1024));
    const script = path.join(dir, 'starter.mts');
    const module = path.resolve('src/adapters/rsync/run-rsync.ts');
    // About 80 s at 50 KiB/s: still copying when its starter dies.
    fs.writeFileSync(script, `import { runRsync } from ${JSON.stringify(module)};\nawait runRsync(['--bwlimit=50', ${JSON.stringify(src)}, ${JSON.stringify(path.join(dir, 'slow-dst.bin'))}], {});\n`);
    const starter = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'ignore' });
    const exited = new Promise((resolve) => starter.once('exit', resolve));
    await until(async () => pidsWithArg(src).length > 0, 20_000, 100);
    await sleep(300);
    starter.kill('SIGKILL');
    await exited;
    const gone = await until(async () => pidsWithArg(src).length === 0, 10_000, 100).then(() => true, () => false);
    expect(gone, `still running: ${pidsWithArg(src).join(', ')}`).toBe(true);
  });
});
