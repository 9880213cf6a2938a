import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SshPool } from '../../../src/adapters/ssh/index.js';
import { targetFor } from '../../fixtures/sshd.js';

const sshd = inject('sshd');
const pool = new SshPool();
const t = targetFor(sshd, 'password');
const dir = path.join(sshd.homeDir, `sftp-${randomUUID()}`);

beforeAll(async () => {
  await pool.execOrThrow(t, ['mkdir', '-p', '--', dir]);
});
afterAll(async () => {
  await pool.exec(t, ['rm', '-rf', '--', dir]);
  await pool.closeAll();
});

async function waitFor<T>(fn: () => T | undefined | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('sftp', () => {
  it('uploads a stream, reports the bytes and applies the mode', async () => {
    const chunks = Array.from({ length: 40 }, () => randomBytes(50_000));
    const remote = path.join(dir, 'upload with space.bin');
    const bytes = await pool.sftpUpload(t, Readable.from(chunks), remote, { mode: 0o640 });
    expect(bytes).toBe(2_000_000);
    expect(sha(readFileSync(remote))).toBe(sha(Buffer.concat(chunks)));
    expect(statSync(remote).mode & 0o777).toBe(0o640);
    // The SFTP session gave its channel back.
    expect(pool.stats().activeChannels).toBe(0);
  });

  it('removes the partial file when the source fails', async () => {
    const remote = path.join(dir, 'partial.bin');
    async function* failing(): AsyncGenerator<Buffer> {
      yield randomBytes(200_000);
      yield randomBytes(200_000);
      throw new Error('source broke');
    }
    await expect(pool.sftpUpload(t, Readable.from(failing()), remote)).rejects.toThrow('source broke');
    expect(existsSync(remote)).toBe(false);
    expect(readdirSync(dir).filter((n) => n.includes('partial.bin'))).toEqual([]);
    expect(pool.stats().activeChannels).toBe(0);
  });

  it('writes under a hidden temporary name and renames into place: the final name never holds a partial file', async () => {
    const remote = path.join(dir, 'replaced.bin');
    writeFileSync(remote, 'old content');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const chunks = Array.from({ length: 10 }, () => randomBytes(100_000));
    async function* paused(): AsyncGenerator<Buffer> {
      for (let i = 0; i < chunks.length; i++) {
        if (i === 5) await gate;
        yield chunks[i];
      }
    }
    const upload = pool.sftpUpload(t, Readable.from(paused()), remote);
    // Half sent: the old file is still whole under its name, the new bytes are in the temporary one.
    const temp = await waitFor(() => readdirSync(dir).find((n) => /^\.replaced\.bin\.[0-9a-f]{8}\.fleet-part$/.test(n)));
    await waitFor(() => statSync(path.join(dir, temp)).size >= 400_000);
    expect(readFileSync(remote, 'utf8')).toBe('old content');
    release();
    expect(await upload).toBe(1_000_000);
    expect(readFileSync(remote).equals(Buffer.concat(chunks))).toBe(true);
    expect(readdirSync(dir).filter((n) => n.includes('replaced.bin'))).toEqual(['replaced.bin']);
  });

  it('removes the partial file when aborted', async () => {
    const remote = path.join(dir, 'aborted.bin');
    const ac = new AbortController();
    async function* slow(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 100; i++) {
        if (i === 3) ac.abort();
        yield randomBytes(64_000);
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    await expect(pool.sftpUpload(t, Readable.from(slow()), remote, { signal: ac.signal })).rejects.toThrow(/abort/i);
    expect(existsSync(remote)).toBe(false);
  });

  it('writes every byte in order, small fragments and large chunks alike', async () => {
    const chunks = Array.from({ length: 300 }, (_, i) => randomBytes(i % 3 === 0 ? 100 : 70_000));
    const remote = path.join(dir, 'mixed.bin');
    const n = await pool.sftpUpload(t, Readable.from(chunks), remote);
    const all = Buffer.concat(chunks);
    expect(n).toBe(all.length);
    expect(readFileSync(remote).equals(all)).toBe(true);
    expect(pool.stats().activeChannels).toBe(0);
  });

  it('an open failure destroys the source and leaves the file alone', async () => {
    const src = Readable.from([Buffer.from('x')]);
    await expect(pool.sftpUpload(t, src, '/root/nope.bin')).rejects.toMatchObject({ code: 3 });
    expect(src.destroyed).toBe(true);
  });

  it('withSftp hands out a working session and ends it', async () => {
    const names = await pool.withSftp(t, (s) =>
      new Promise<string[]>((resolve, reject) =>
        s.readdir(dir, (err, list) => (err ? reject(err) : resolve(list.map((e) => e.filename).sort()))),
      ),
    );
    expect(names).toContain('upload with space.bin');
    await new Promise((r) => setTimeout(r, 50));
    expect(pool.stats().activeChannels).toBe(0);
  });
});
