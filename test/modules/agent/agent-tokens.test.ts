/** The agent token cache: what `peek` (the heartbeat's promise-free check) may answer from memory. */
import { describe, expect, it } from 'vitest';
import { AgentTokenCache } from '../../../src/modules/agent/agent-tokens.js';

describe('AgentTokenCache.peek', () => {
  it('answers only for a resolved, unexpired, not evicted token; never reads', async () => {
    const clock = { now: 0 };
    let reads = 0;
    const cache = new AgentTokenCache(
      async (hash) => {
        reads++;
        return hash === 'known' ? { id: 4, name: 'web-1', status: 'online' } : undefined;
      },
      60_000,
      100,
      () => clock.now,
    );
    expect(cache.peek('known')).toBeUndefined(); // never resolved
    expect(reads).toBe(0);
    expect((await cache.resolve('known'))?.id).toBe(4);
    expect(cache.peek('known')?.id).toBe(4);
    expect(await cache.resolve('unknown')).toBeNull();
    expect(cache.peek('unknown')).toBeUndefined(); // a miss is not cached
    clock.now += 60_000;
    expect(cache.peek('known')).toBeUndefined(); // expired: looked up again
    await cache.resolve('known');
    cache.evictServers([4]); // rotation or deletion
    expect(cache.peek('known')).toBeUndefined();
    expect(reads).toBe(3);
  });
});
