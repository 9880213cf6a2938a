/** The agent token cache: what `peek` (the heartbeat's promise-free check) may answer from memory. */
import { describe, expect, it } from 'vitest';
import { AgentTokenCache, HeaderHashes, hashAgentToken } from '../../../src/modules/agent/agent-tokens.js';

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

describe('HeaderHashes', () => {
  const token = 'A1b2C3d4E5f6G7h8I9j0_-kLmNoPqRsTuVwXyZ012';

  it('answers the token hash of a Bearer header, the same from memory as computed', () => {
    const hashes = new HeaderHashes();
    expect(hashes.of(`Bearer ${token}`)).toBe(hashAgentToken(token));
    expect(hashes.of(`Bearer ${token}`)).toBe(hashAgentToken(token));
    expect(hashes.of(`bearer   ${token}`)).toBe(hashAgentToken(token));
  });

  it('answers null for anything that is not a well-formed agent token', () => {
    const hashes = new HeaderHashes();
    for (const h of [undefined, '', token, `Basic ${token}`, 'Bearer short', `Bearer ${token}!`, `Bearer ${'x'.repeat(129)}`, `Bearer ${token} extra`]) {
      expect(hashes.of(h)).toBeNull();
    }
  });

  it('stays bounded: full, it starts over and still answers right', () => {
    const hashes = new HeaderHashes(3);
    const tokens = Array.from({ length: 10 }, (_, i) => `${token.slice(0, 30)}${String(i).padStart(4, '0')}`);
    for (const t of tokens) expect(hashes.of(`Bearer ${t}`)).toBe(hashAgentToken(t));
    expect((hashes as unknown as { memo: Map<string, string> }).memo.size).toBeLessThanOrEqual(3);
    expect(hashes.of(`Bearer ${tokens[0]}`)).toBe(hashAgentToken(tokens[0]));
  });
});
