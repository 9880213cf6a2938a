/**
 * The setpriv probe: a success is kept, a failure (here: setpriv not on PATH, as on a system
 * without util-linux or a probe that could not start) is asked again after a minute, so one bad
 * moment never leaves every later rsync without the parent-death signal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parentDeathWrapper } from '../../../src/adapters/rsync/run-rsync.js';

describe('parentDeathWrapper', () => {
  it('asks again a minute after a failure, and keeps a success', async () => {
    const t0 = Date.now();
    const empty = mkdtempSync(path.join(tmpdir(), 'fleet-nopath-'));
    const saved = process.env.PATH;
    try {
      process.env.PATH = empty;
      expect(await parentDeathWrapper(t0)).toBe(false);
    } finally {
      process.env.PATH = saved;
      rmSync(empty, { recursive: true, force: true });
    }
    // Within the minute the failure stands; after it, setpriv (util-linux, installed here) is found.
    expect(await parentDeathWrapper(t0 + 30_000)).toBe(false);
    expect(await parentDeathWrapper(t0 + 60_000)).toBe(true);
    // A success is not asked again: even with setpriv gone it stays.
    process.env.PATH = '/nonexistent';
    try {
      expect(await parentDeathWrapper(t0 + 10 * 60_000)).toBe(true);
    } finally {
      process.env.PATH = saved;
    }
  });
});
