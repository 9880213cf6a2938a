import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenPathError } from '../../../src/core/errors.js';
import { isSameOrUnder } from '../../../src/core/paths.js';
import { resolvePath, StagingPaths } from '../../../src/modules/staging/staging-paths.js';
import { removePrefixLeftovers, uniquePrefix } from './staging-helpers.js';

describe('staging prefix rule', () => {
  let prefix: string;
  let paths: StagingPaths;
  let dir: string;
  let outside: string;

  beforeAll(() => {
    prefix = uniquePrefix();
    paths = new StagingPaths(prefix);
    dir = `${prefix}aaaaaaaaaaaa`;
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'sub/file.txt'), 'x');
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'staging-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    fs.symlinkSync(outside, path.join(dir, 'out-link'));
    fs.symlinkSync('sub', path.join(dir, 'in-link'));
    fs.symlinkSync(path.join(outside, 'missing.txt'), path.join(dir, 'dangling-out'));
  });
  afterAll(() => {
    removePrefixLeftovers(prefix);
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('accepts paths whose resolved form starts with the prefix', async () => {
    expect(await paths.resolveInsideStaging(path.join(dir, 'sub/file.txt'))).toBe(path.join(dir, 'sub/file.txt'));
    expect(await paths.resolveInsideStaging(`${dir}/sub/../sub/./file.txt`)).toBe(path.join(dir, 'sub/file.txt'));
    expect(await paths.resolveInsideStaging(path.join(dir, 'in-link/file.txt'))).toBe(path.join(dir, 'sub/file.txt'));
    // A missing tail is kept, so a missing file inside staging is still "inside".
    expect(await paths.resolveInsideStaging(path.join(dir, 'nope/deeper.txt'))).toBe(path.join(dir, 'nope/deeper.txt'));
    expect(await paths.resolveInsideStaging(`${prefix}other`)).toBe(`${prefix}other`);
  });

  it('refuses `..` escapes, symlinks pointing out, and look-alike prefixes', async () => {
    const refused = [
      `${dir}/../../etc/passwd`,
      `${dir}/..`,
      path.join(dir, 'out-link'),
      path.join(dir, 'out-link/secret.txt'),
      path.join(dir, 'dangling-out'),
      // The missing component must not stop symlink resolution after a `..`.
      path.join(dir, 'missing/../out-link/secret.txt'),
      prefix.slice(0, -1),
      '/etc/passwd',
      'relative/path',
    ];
    for (const p of refused) {
      await expect(paths.resolveInsideStaging(p), p).rejects.toBeInstanceOf(ForbiddenPathError);
    }
  });

  it('treats encoded separators as plain characters', async () => {
    const p = path.join(dir, '..%2F..%2Fetc%2Fpasswd');
    expect(await paths.resolveInsideStaging(p)).toBe(p);
  });

  it('resolves like realpath and compares directories by component', async () => {
    expect(await resolvePath(path.join(dir, 'out-link/secret.txt'))).toBe(path.join(fs.realpathSync(outside), 'secret.txt'));
    expect(isSameOrUnder('/etc', '/etc')).toBe(true);
    expect(isSameOrUnder('/etc/x', '/etc')).toBe(true);
    expect(isSameOrUnder('/etcetera', '/etc')).toBe(false);
    expect(isSameOrUnder('/anything', '/')).toBe(true);
  });

  it('refuses NUL bytes and symlink loops as bad requests', async () => {
    fs.symlinkSync('loop-b', path.join(dir, 'loop-a'));
    fs.symlinkSync('loop-a', path.join(dir, 'loop-b'));
    await expect(resolvePath(`${dir}/a\0b`)).rejects.toMatchObject({ statusCode: 400 });
    await expect(resolvePath(path.join(dir, 'loop-a/x'))).rejects.toMatchObject({ statusCode: 400 });
  });

  it('a path that outgrows PATH_MAX only below a missing component is a 400 path_too_long (was a 500)', async () => {
    // realpath fails with ENOENT first; the component walk then lstat()s ever longer paths.
    const deep = `${dir}/missing/${'a/'.repeat(2_100)}b`;
    await expect(resolvePath(deep)).rejects.toMatchObject({ statusCode: 400, code: 'path_too_long' });
    await expect(paths.resolveInsideStaging(deep)).rejects.toMatchObject({ statusCode: 400, code: 'path_too_long' });
  });

  it('creates fresh <prefix><12 hex> directories', async () => {
    const made = await paths.createStagingDir();
    expect(made).toMatch(new RegExp(`^${prefix}[0-9a-f]{12}$`));
    expect(fs.statSync(made).mode & 0o777).toBe(0o755);
    expect(paths.isInside(made)).toBe(true);
    expect(path.basename(paths.scratchFile('.zip.part')).startsWith(path.basename(prefix))).toBe(false);
  });
});
