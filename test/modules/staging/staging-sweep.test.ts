/**
 * What a killed process leaves beside the staging directories (a ZIP's work directory, a
 * half-received archive) is swept by the next start, unless its process is still alive (another
 * worker extracting right now). A work directory is never staging, even under a prefix that is a
 * whole directory.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StagingPaths } from '../../../src/modules/staging/staging-paths.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});
const root = () => {
  const r = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-sweep-'));
  roots.push(r);
  return r;
};
/** A pid that was used and is gone. */
const deadPid = () => spawnSync('true').pid;

describe('staging leftovers of killed processes', () => {
  it('the sweep removes work directories and scratch archives of dead processes only', async () => {
    const r = root();
    const paths = new StagingPaths(path.join(r, 'svc_upload_'));
    const dead = deadPid();
    fs.mkdirSync(path.join(r, `.svc_upload_0123456789ab.${dead}.extracting`));
    fs.writeFileSync(path.join(r, `.svc_upload_0123456789ab.${dead}.extracting`, 'half.bin'), 'x');
    fs.writeFileSync(path.join(r, `.svc_upload_ba9876543210.${dead}.zip.part`), 'x');
    const live = await paths.createWorkDir();
    const liveArchive = paths.scratchFile('.zip.part');
    fs.writeFileSync(liveArchive, 'x');
    fs.mkdirSync(path.join(r, 'svc_upload_aaaaaaaaaaaa'));
    fs.writeFileSync(path.join(r, '.unrelated.123.extracting'), 'x');

    const removed = await paths.sweepAbandoned();
    expect(removed.map((p) => path.basename(p)).sort()).toEqual([`.svc_upload_0123456789ab.${dead}.extracting`, `.svc_upload_ba9876543210.${dead}.zip.part`]);
    expect(fs.readdirSync(r).sort()).toEqual(['.unrelated.123.extracting', path.basename(live), path.basename(liveArchive), 'svc_upload_aaaaaaaaaaaa'].sort());
  });

  it('a work directory is moved into place whole under a fresh staging name', async () => {
    const r = root();
    const paths = new StagingPaths(path.join(r, 'svc_upload_'));
    const work = await paths.createWorkDir();
    expect(paths.isInside(work)).toBe(false);
    fs.writeFileSync(path.join(work, 'a.txt'), 'a');
    const dest = await paths.publishWorkDir(work);
    expect(path.basename(dest)).toMatch(/^svc_upload_[0-9a-f]{12}$/);
    expect(fs.readFileSync(path.join(dest, 'a.txt'), 'utf8')).toBe('a');
    expect(fs.statSync(dest).mode & 0o777).toBe(0o755);
    expect(fs.existsSync(work)).toBe(false);
  });

  it('under a prefix that is a whole directory, a work directory is not inside staging', async () => {
    const r = root();
    const paths = new StagingPaths(`${r}/`);
    const work = await paths.createWorkDir();
    expect(work.startsWith(`${r}/`)).toBe(true);
    expect(paths.isInside(work)).toBe(false);
    expect(paths.isInside(path.join(work, 'a.txt'))).toBe(false);
    expect(paths.isInside(path.join(r, 'site'))).toBe(true);
    await expect(paths.resolveStagingDir(work)).rejects.toMatchObject({ code: 'path_outside_staging' });
  });
});
