import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SshConnectionError, SshPool } from '../../../src/adapters/ssh/index.js';
import { startSshd, targetFor, type SshdInstance } from '../../fixtures/sshd.js';

const shared = inject('sshd');

describe('SshPool connection reuse', () => {
  it('serves many sequential execs over one connection', async () => {
    const pool = new SshPool();
    try {
      const t = targetFor(shared, 'key');
      for (let i = 0; i < 30; i++) expect((await pool.exec(t, ['echo', String(i)])).stdout).toBe(`${i}\n`);
      expect(pool.stats()).toMatchObject({ connections: 1, connectsTotal: 1, activeChannels: 0, queued: 0 });
    } finally {
      await pool.closeAll();
    }
  });

  it('forget(id) closes the server\'s connections and re-runs trust on first use', async () => {
    const pinned: string[] = [];
    const pool = new SshPool({ onHostKeyPinned: (_id, fp) => void pinned.push(fp) });
    try {
      const t = { ...targetFor(shared, 'key'), hostKeyFingerprint: null };
      await pool.exec(t, 'true');
      await pool.exec(t, 'true');
      expect(pinned).toHaveLength(1);
      pool.forget(t.id);
      await sleep(50);
      expect(pool.stats().connections).toBe(0);
      await pool.exec(t, 'true');
      expect(pinned).toEqual([shared.hostKeyFingerprint, shared.hostKeyFingerprint]);
      expect(pool.stats().connectsTotal).toBe(2);
    } finally {
      await pool.closeAll();
    }
  });

  it('runs 20 parallel execs on one host over at most maxPerHost connections', async () => {
    const pool = new SshPool({ maxPerHost: 4 });
    try {
      const t = targetFor(shared, 'key');
      const started = Date.now();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => pool.exec(t, `sleep 0.3; echo ${i}`)),
      );
      expect(results.map((r) => r.stdout)).toEqual(Array.from({ length: 20 }, (_, i) => `${i}\n`));
      const s = pool.stats();
      // 10 channels per connection: 20 concurrent sessions need two connections, not twenty.
      expect(s.connectsTotal).toBeGreaterThanOrEqual(2);
      expect(s.connectsTotal).toBeLessThanOrEqual(4);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await pool.closeAll();
    }
  });

  it('queues beyond maxPerHost x channels and still completes everything', async () => {
    const pool = new SshPool({ maxPerHost: 1, maxChannelsPerConnection: 2 });
    try {
      const t = targetFor(shared, 'password');
      const runs = Promise.all(Array.from({ length: 6 }, (_, i) => pool.exec(t, `sleep 0.2; echo ${i}`)));
      await sleep(100);
      expect(pool.stats().queued).toBeGreaterThan(0);
      expect((await runs).map((r) => r.exitCode)).toEqual([0, 0, 0, 0, 0, 0]);
      expect(pool.stats().connectsTotal).toBe(1);
    } finally {
      await pool.closeAll();
    }
  });

  it('closes idle connections and reconnects on the next call', async () => {
    const pool = new SshPool({ idleMs: 200 });
    try {
      const t = targetFor(shared, 'key');
      await pool.exec(t, 'true');
      expect(pool.stats().connections).toBe(1);
      await sleep(400);
      expect(pool.stats().connections).toBe(0);
      expect((await pool.exec(t, 'echo again')).stdout).toBe('again\n');
      expect(pool.stats().connectsTotal).toBe(2);
    } finally {
      await pool.closeAll();
    }
  });

  it('refuses work after closeAll', async () => {
    const pool = new SshPool();
    await pool.exec(targetFor(shared, 'key'), 'true');
    await pool.closeAll();
    expect(pool.stats().connections).toBe(0);
    await expect(pool.exec(targetFor(shared, 'key'), 'true')).rejects.toBeInstanceOf(SshConnectionError);
  });
});

describe('SshPool when the server drops connections', () => {
  let inst: SshdInstance;
  beforeAll(async () => {
    // Our own instance: this test kills it.
    inst = await startSshd();
  });
  afterAll(() => inst.stop());

  it('fails the in-flight exec cleanly and reconnects on the next call', async () => {
    const pool = new SshPool();
    try {
      const t = targetFor(inst, 'key');
      await pool.exec(t, 'true');
      const inflight = pool.exec(t, 'sleep 10').catch((e: unknown) => e);
      await sleep(300);
      const started = Date.now();
      inst.kill();
      const err = await inflight;
      expect(Date.now() - started).toBeLessThan(2000);
      expect(err).toBeInstanceOf(SshConnectionError);
      expect((err as SshConnectionError).kind).toBe('closed');
      expect((err as Error).message).toBe(`Connection to 127.0.0.1:${inst.port} closed`);

      await inst.restart();
      expect((await pool.exec(t, 'echo back')).stdout).toBe('back\n');
      expect(pool.stats().connectsTotal).toBe(2);
    } finally {
      await pool.closeAll();
    }
  });

  it('reconnects transparently after a restart between calls', async () => {
    const pool = new SshPool();
    try {
      const t = targetFor(inst, 'password');
      expect((await pool.exec(t, 'echo 1')).stdout).toBe('1\n');
      await inst.restart();
      // The dead connection's 'close' may or may not have been seen yet; either way this must work.
      expect((await pool.exec(t, 'echo 2')).stdout).toBe('2\n');
      expect(pool.stats().connectsTotal).toBe(2);
    } finally {
      await pool.closeAll();
    }
  });
});
