import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SshPool, shellQuote } from '../../../src/adapters/ssh/index.js';
import { hostileNames } from '../../fixtures/hostile-names.js';
import { targetFor } from '../../fixtures/sshd.js';

// The sshd runs on this machine, so the test can look at the remote filesystem directly.
const sshd = inject('sshd');
const pool = new SshPool();
const t = targetFor(sshd, 'key');
const base = path.join(sshd.homeDir, `inj-${randomUUID()}`);

beforeAll(async () => {
  await pool.execOrThrow(t, ['mkdir', '-p', '--', base]);
});
afterAll(async () => {
  await pool.exec(t, ['rm', '-rf', '--', base]);
  await pool.closeAll();
});

describe('remote paths through shellQuote', () => {
  it.each(['argv', 'script'] as const)('mkdir -p creates hostile names literally (%s form)', async (form) => {
    const marker = `/tmp/fleet-inj-marker-${randomUUID()}`;
    for (const name of hostileNames(marker)) {
      const dir = path.join(base, form, name);
      const r =
        form === 'argv'
          ? await pool.exec(t, ['mkdir', '-p', '--', dir])
          : await pool.exec(t, `mkdir -p -- ${shellQuote(dir)} && ls -d -- ${shellQuote(dir)}`);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(statSync(dir).isDirectory()).toBe(true);
      expect(existsSync(marker)).toBe(false);
    }
  });

  it('ls on hostile names that do not exist fails without running anything', async () => {
    const marker = `/tmp/fleet-inj-marker-${randomUUID()}`;
    for (const name of hostileNames(marker)) {
      const r = await pool.exec(t, `ls -- ${shellQuote(path.join(base, 'missing', name))}`);
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toContain('No such file');
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('a leading -rf is an operand after --, not an option', async () => {
    const r = await pool.exec(t, `cd ${shellQuote(base)} && mkdir -p -- ${shellQuote('-rf')} && ls -a -- ${shellQuote('-rf')}`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(statSync(path.join(base, '-rf')).isDirectory()).toBe(true);
  });

  it('argv elements with quotes, globs and variables arrive byte for byte', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-expansion payload, on purpose
    const words = ["it's", '*', '$HOME', '${PATH}', '~', 'a\\b', '', ' lead', 'ünï ☃'];
    const r = await pool.exec(t, ['printf', '%s\\n', ...words]);
    expect(r.stdout).toBe(words.map((w) => `${w}\n`).join(''));
  });
});
