import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ExecError, SshPool } from '../../../src/adapters/ssh/index.js';
import { targetFor } from '../../fixtures/sshd.js';

const sshd = inject('sshd');
const pool = new SshPool();
const key = targetFor(sshd, 'key');
const pw = targetFor(sshd, 'password');

afterAll(() => pool.closeAll());

/** Exit status of `pgrep -f pattern` on this machine (the sshd is local): 0 = found, 1 = none. */
async function pgrep(pattern: string): Promise<number> {
  try {
    await promisify(execFile)('pgrep', ['-f', pattern]);
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

describe('SshPool.exec', () => {
  it('runs argv with each element quoted, with key and with password auth', async () => {
    for (const t of [key, pw]) {
      const r = await pool.exec(t, ['printf', '%s|', 'a b', "it's", '$(nope)', '']);
      expect(r).toMatchObject({ stdout: "a b|it's|$(nope)||", stderr: '', exitCode: 0, timedOut: false });
      expect(r.durationMs).toBeGreaterThan(0);
    }
  });

  it('runs a string as an sh script and reports exit code and stderr without throwing', async () => {
    const r = await pool.exec(key, 'echo out; echo err >&2; whoami; exit 7');
    expect(r.stdout).toBe(`out\n${sshd.username}\n`);
    expect(r.stderr).toBe('err\n');
    expect(r.exitCode).toBe(7);
    expect(r.timedOut).toBe(false);
  });

  it('pipes string stdin and ends it', async () => {
    const r = await pool.exec(key, 'cat; echo; cat', { stdin: 'héllo' });
    expect(r.stdout).toBe('héllo\n');
  });

  it('streams a large stdin (5 MB) with backpressure', async () => {
    const chunks = Array.from({ length: 80 }, () => randomBytes(64 * 1024));
    const expected = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
    const r = await pool.exec(key, 'sha256sum | cut -d" " -f1; echo', { stdin: Readable.from(chunks) });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(expected);
  });

  it('keeps only the tail of large output', async () => {
    const r = await pool.exec(key, "head -c 300000 /dev/zero | tr '\\0' a; printf END; head -c 5000 /dev/zero >&2", {
      maxOutputBytes: 1000,
    });
    expect(r.stdout.length).toBe(1000);
    expect(r.stdout.endsWith('aaaEND')).toBe(true);
    expect(r.stderr.length).toBe(1000);
  });

  it('times out, and the remote process is killed too', async () => {
    const token = `fleet-timeout-${randomUUID()}`;
    const started = Date.now();
    const r = await pool.exec(key, `sleep 30; echo ${token}`, { timeoutMs: 1000 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(Date.now() - started).toBeLessThan(2500);
    let found = await pgrep(token);
    for (let i = 0; i < 20 && found === 0; i++) {
      await sleep(100);
      found = await pgrep(token);
    }
    expect(found).toBe(1);
  });

  it('times out argv commands too, and the connection stays usable', async () => {
    const r = await pool.exec(key, ['sleep', '20'], { timeoutMs: 1000 });
    expect(r.timedOut).toBe(true);
    expect((await pool.exec(key, 'echo ok')).stdout).toBe('ok\n');
  });

  it('execOrThrow throws ExecError on non-zero exit, with a client-safe message', async () => {
    const err = await pool.execOrThrow(key, ['sh', '-c', 'echo boom >&2; exit 3']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExecError);
    const e = err as ExecError;
    expect(e.exitCode).toBe(3);
    expect(e.stderr).toBe('boom\n');
    expect(e.host).toBe(key.name);
    expect(e.command).toContain('exit 3');
    expect(e.message).toBe(`Command failed on ${key.name} with exit code 3: boom`);
    expect(e.statusCode).toBe(400);
    await expect(pool.execOrThrow(key, 'true')).resolves.toMatchObject({ exitCode: 0 });
  });
});
