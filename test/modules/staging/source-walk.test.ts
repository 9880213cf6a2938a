/**
 * The source walk on its own: the same counts and sizes on one thread and split with the stat
 * helper thread, the limit, symlinks, and a helper that is gone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkFiles } from '../../../src/modules/staging/source-walk.js';
import { StatWorker } from '../../../src/adapters/fs/stat-worker.js';

const FILES = 2500;

describe('walkFiles', () => {
  let root: string;
  let expectedSize = 0;
  const helper = new StatWorker();

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'source-walk-test-'));
    for (let i = 0; i < FILES; i++) {
      const dir = path.join(root, `d${i % 10}`, `s${i % 3}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `f${i}`), 'x'.repeat(i % 97));
      expectedSize += i % 97;
    }
    // Neither followed nor counted: a link to a directory full of files and a link to a file.
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'source-walk-outside-'));
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(elsewhere, `o${i}`), 'outside');
    fs.symlinkSync(elsewhere, path.join(root, 'linked-dir'));
    fs.symlinkSync(path.join(root, 'd0/s0/f0'), path.join(root, 'linked-file'));
  });
  afterAll(async () => {
    await helper.close();
    const outside = fs.readlinkSync(path.join(root, 'linked-dir'));
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('counts regular files and their sizes the same way with and without the helper thread', async () => {
    const alone = await walkFiles(root, 10_000);
    const split = await walkFiles(root, 10_000, helper);
    expect(alone).toEqual({ fileCount: FILES, sizeBytes: expectedSize, truncated: false });
    expect(split).toEqual(alone);
  });

  it('stops at the limit and says so', async () => {
    const r = await walkFiles(root, 1500, helper);
    expect(r.fileCount).toBe(1500);
    expect(r.truncated).toBe(true);
    expect((await walkFiles(root, FILES, helper)).truncated).toBe(true);
  });

  it('answers concurrent walks on one helper correctly', async () => {
    const all = await Promise.all([walkFiles(root, 10_000, helper), walkFiles(root, 2000, helper), walkFiles(root, 10_000, helper)]);
    expect(all.map((r) => r.fileCount)).toEqual([FILES, 2000, FILES]);
    expect(all[0].sizeBytes).toBe(expectedSize);
  });

  it('does the work itself when the helper is gone, or goes away mid-walk', async () => {
    const expected = { fileCount: FILES, sizeBytes: expectedSize, truncated: false };
    const dead = new StatWorker();
    await dead.close();
    expect(await walkFiles(root, 10_000, dead)).toEqual(expected);
    const dying = new StatWorker();
    const walk = walkFiles(root, 10_000, dying);
    await dying.close();
    expect(await walk).toEqual(expected);
  });

  it('fails for a root it cannot open', async () => {
    await expect(walkFiles(path.join(root, 'missing'), 10)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
