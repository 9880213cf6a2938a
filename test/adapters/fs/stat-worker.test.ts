/**
 * The stat helper thread itself (the walk falls back to stating on its own thread, so the walk's
 * tests alone would not notice a thread that never starts): it runs from the TypeScript sources
 * (tsx's loader) and from the built service (plain JavaScript).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatWorker } from '../../../src/adapters/fs/stat-worker.js';

const run = promisify(execFile);

describe('StatWorker', () => {
  let dir: string;
  let files: string[];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stat-worker-'));
    files = [10, 20, 30].map((n, i) => {
      const f = path.join(dir, `f${i}`);
      fs.writeFileSync(f, 'x'.repeat(n));
      return f;
    });
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.symlinkSync(files[0], path.join(dir, 'link'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const inputs = () => [...files, path.join(dir, 'sub'), path.join(dir, 'link'), path.join(dir, 'gone')];

  it('counts regular files and sums their sizes on its thread, from the sources', async () => {
    const w = new StatWorker();
    try {
      expect(await w.sizeOf(inputs())).toEqual({ count: 3, size: 60 });
    } finally {
      await w.close();
    }
  });

  it('does the same from the built service', async () => {
    await run(path.resolve('node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json']);
    const script = `import('${pathToDist()}').then(async ({ StatWorker }) => { const w = new StatWorker(); console.log(JSON.stringify(await w.sizeOf(${JSON.stringify(inputs())}))); await w.close(); })`;
    const { stdout } = await run(process.execPath, ['-e', script]);
    expect(JSON.parse(stdout)).toEqual({ count: 3, size: 60 });
  }, 60_000);
});

function pathToDist(): string {
  return path.resolve('dist/src/adapters/fs/stat-worker.js');
}
