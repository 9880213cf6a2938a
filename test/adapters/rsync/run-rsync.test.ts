import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runRsync } from '../../../src/adapters/rsync/run-rsync.js';
import { SpawnHelper } from '../../../src/adapters/rsync/spawn-helper.js';
import { pidsWithArg } from '../../helpers/service-process.js';
import { until } from '../../modules/push/push-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-run-rsync-'));
const helper = new SpawnHelper();
/** A path in the scratch dir, its name prefixed by the test group that uses it. */
const under = (group: string, name: string) => path.join(dir, `${group.replace(/ /g, '-')}-${name}`);
afterAll(() => {
  helper.close();
  for (const pid of pidsWithArg(dir)) process.kill(pid, 'SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

// Every behaviour twice: rsync spawned by this process, and by the spawn helper process.
describe.each([
  ['spawned here', undefined],
  ['spawned by the helper', helper],
] as const)('runRsync, %s', (how, spawner) => {
  const sub = (name: string) => under(how, name);

  it('copies, and answers with the exit code and the stats', async () => {
    fs.writeFileSync(path.join(dir, 'small.txt'), 'hello');
    const r = await runRsync(['-a', '--stats', path.join(dir, 'small.txt'), sub('small-copy.txt')], {}, { spawner });
    expect(r.exitCode).toBe(0);
    expect(fs.readFileSync(sub('small-copy.txt'), 'utf8')).toBe('hello');
    expect(r.stats?.regularFilesTransferred).toBe(1);
  });

  it("names a failure by rsync's exit code and what it printed", async () => {
    const r = await runRsync(['-a', path.join(dir, 'missing'), sub('nowhere')], {}, { spawner });
    expect(r.exitCode).toBe(23);
    expect(r.stderr).toContain('No such file or directory');
  });

  // rsync runs in its own process group (so a cancel reaches its ssh child); a service killed
  // outright must not leave it running, writing to a server the restarted service recovers.
  it('does not outlive the process that started it, even one killed with SIGKILL', async () => {
    const src = sub('slow-src.bin');
    fs.writeFileSync(src, Buffer.alloc(4 * 1024 * 1024));
    const script = sub('starter.mts');
    const module = path.resolve('src/adapters/rsync/run-rsync.ts');
    const helperModule = path.resolve('src/adapters/rsync/spawn-helper.ts');
    const opts = spawner ? '{ spawner: new SpawnHelper() }' : '{}';
    // About 80 s at 50 KiB/s: still copying when its starter dies.
    fs.writeFileSync(
      script,
      `import { runRsync } from ${JSON.stringify(module)};\nimport { SpawnHelper } from ${JSON.stringify(helperModule)};\n` +
        `await runRsync(['--bwlimit=50', ${JSON.stringify(src)}, ${JSON.stringify(sub('slow-dst.bin'))}], {}, ${opts});\n`,
    );
    const starter = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'ignore' });
    const exited = new Promise((resolve) => starter.once('exit', resolve));
    await until(async () => pidsWithArg(src).length > 0, 20_000, 100);
    await sleep(300);
    starter.kill('SIGKILL');
    await exited;
    const gone = await until(async () => pidsWithArg(src).length === 0, 10_000, 100).then(() => true, () => false);
    expect(gone, `still running: ${pidsWithArg(src).join(', ')}`).toBe(true);
  });

  it('stops the whole run at its deadline, and a run aborted before it started never runs', async () => {
    const src = sub('deadline-src.bin');
    fs.writeFileSync(src, Buffer.alloc(2 * 1024 * 1024));
    const r = await runRsync(['--bwlimit=50', src, sub('deadline-dst.bin')], {}, { spawner, timeoutMs: 700, killGraceMs: 1000 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode === 0).toBe(false);
    expect(pidsWithArg(src)).toEqual([]);
    const ac = new AbortController();
    ac.abort();
    const a = await runRsync(['--bwlimit=50', src, sub('aborted-dst.bin')], {}, { spawner, signal: ac.signal, killGraceMs: 1000 });
    expect(a.aborted).toBe(true);
    expect(a.exitCode === 0).toBe(false);
    expect(pidsWithArg(src)).toEqual([]);
  });

  it('reports progress from the file rsync writes, and reads its stats from there', async () => {
    const src = sub('progress-src');
    fs.mkdirSync(src);
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(src, `f${i}`), Buffer.alloc(64 * 1024, i));
    const seen: number[] = [];
    const file = sub('progress.out');
    const r = await runRsync(['-a', '--stats', '--info=progress2', '--bwlimit=2000', `${src}/`, sub('progress-dst')], {}, {
      spawner,
      progress: { file, intervalMs: 50, onProgress: (p) => seen.push(p.bytes) },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stats?.regularFilesTransferred).toBe(20);
    expect(seen.length).toBeGreaterThan(0);
  });
});

describe('the spawn helper', () => {
  it('a helper that dies fails the runs it had as killed; the next run starts a new helper', async () => {
    const own = new SpawnHelper();
    const sub2 = (name: string) => under('helper', name);
    try {
      const src = sub2('helper-death-src.bin');
      fs.writeFileSync(src, Buffer.alloc(2 * 1024 * 1024));
      const running = runRsync(['--bwlimit=50', src, sub2('helper-death-dst.bin')], {}, { spawner: own });
      await until(async () => pidsWithArg(src).length > 0, 20_000, 50);
      expect(own.pid).toBeGreaterThan(0);
      process.kill(own.pid!, 'SIGKILL');
      const r = await running;
      expect(r.exitCode === 0).toBe(false);
      await until(async () => pidsWithArg(src).length === 0, 10_000, 100);
      fs.writeFileSync(sub2('after.txt'), 'again');
      const again = await runRsync(['-a', sub2('after.txt'), sub2('after-copy.txt')], {}, { spawner: own });
      expect(again.exitCode).toBe(0);
      expect(fs.readFileSync(sub2('after-copy.txt'), 'utf8')).toBe('again');
    } finally {
      own.close();
    }
  });
});
