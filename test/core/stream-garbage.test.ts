import { describe, expect, it } from 'vitest';
import { streamCollector, youngGc } from '../../src/core/stream-garbage.js';

describe('streamCollector', () => {
  it('asks for a young collection once per `everyBytes` moved, counting across chunks', () => {
    const calls: unknown[] = [];
    const collect = streamCollector(1000, (o) => calls.push(o));
    collect(400);
    collect(400);
    expect(calls).toEqual([]);
    collect(400);
    expect(calls).toEqual([{ type: 'minor' }]);
    // The count restarts after each collection.
    collect(999);
    expect(calls).toHaveLength(1);
    collect(1);
    collect(5000);
    expect(calls).toHaveLength(3);
  });

  it('does nothing without a collector', () => {
    const collect = streamCollector(1, null);
    expect(() => collect(10)).not.toThrow();
  });

  it("reaches V8's collector, which frees the dead chunks of a transfer", async () => {
    const gc = youngGc();
    expect(gc).toBeTypeOf('function');
    const deadChunks = async (collect: (bytes: number) => void): Promise<number> => {
      const before = process.memoryUsage().arrayBuffers;
      // 16 MiB of chunks dead at once, well below the Buffer memory V8 waits for by itself.
      for (let i = 0; i < 256; i++) Buffer.allocUnsafe(64 * 1024).fill(i);
      collect(16 * 1024 * 1024);
      // Backing stores are released by a sweeper task just after the collection.
      await new Promise((r) => setTimeout(r, 100));
      return process.memoryUsage().arrayBuffers - before;
    };
    const MiB = 1024 * 1024;
    // Without the collector the chunks are still held (else this test could prove nothing)...
    expect(await deadChunks(streamCollector(MiB, null))).toBeGreaterThan(12 * MiB);
    // ...with it they are gone.
    expect(await deadChunks(streamCollector(MiB, gc))).toBeLessThan(4 * MiB);
  });
});
