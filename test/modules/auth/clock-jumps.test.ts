/**
 * The wall clock jumps (an NTP step, a VM resumed, an operator fixing the date). Token expiry is
 * an instant on the wall clock every worker agrees on: a jump forward past it expires the token,
 * as it should. The login lockout is a duration (15 minutes): it runs on the cache's monotonic
 * clock, so setting the wall clock back an hour does not lock an administrator out an hour longer,
 * and setting it forward does not end a lockout early. Only the unit's own clocks are driven.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryCache } from '../../../src/adapters/cache/memory-cache.js';
import type { RuntimeSettings } from '../../../src/platform/settings/runtime-settings.js';
import { LOCKOUT_LIMIT, LOCKOUT_WINDOW_S, LoginGuard } from '../../../src/modules/auth/login-guard.js';
import { ACCESS_TTL_S, TokenService } from '../../../src/modules/auth/tokens.js';
import { quietLog } from '../schedules/scheduler-helpers.js';

const HOUR = 3_600_000;
const admin = { id: 1, username: 'admin', token_version: 0 };

describe('token expiry when the wall clock jumps', () => {
  it('a jump forward past an access token\'s expiry expires it; the refresh token still works', async () => {
    let wall = Date.parse('2026-05-01T00:00:00.000Z');
    const tokens = new TokenService('s'.repeat(32), () => wall);
    const pair = await tokens.issuePair(admin);
    expect(await tokens.verify(pair.access_token, 'access')).not.toBeNull();
    wall += HOUR;
    expect(await tokens.verify(pair.access_token, 'access')).toBeNull();
    expect(await tokens.verify(pair.refresh_token, 'refresh')).not.toBeNull();
  });

  it('a jump back keeps a token valid only until its own expiry instant, never longer', async () => {
    let wall = Date.parse('2026-05-01T00:00:00.000Z');
    const tokens = new TokenService('s'.repeat(32), () => wall);
    const pair = await tokens.issuePair(admin);
    wall -= HOUR;
    expect((await tokens.verify(pair.access_token, 'access'))?.expiresAt).toBe(Date.parse('2026-05-01T00:00:00.000Z') / 1000 + ACCESS_TTL_S);
    wall = Date.parse('2026-05-01T00:00:00.000Z') + ACCESS_TTL_S * 1000;
    expect(await tokens.verify(pair.access_token, 'access')).toBeNull();
  });
});

describe('the login lockout when the wall clock jumps', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const settings = { getBool: () => false, get: () => null } as unknown as RuntimeSettings;

  async function lockedOut(guard: LoginGuard): Promise<number | null> {
    try {
      const slot = await guard.reserve('admin', '203.0.113.9');
      await slot.release();
      return null;
    } catch (err) {
      return Number((err as { headers?: Record<string, string> }).headers?.['Retry-After']);
    }
  }

  async function lockOut(guard: LoginGuard): Promise<void> {
    for (let i = 0; i < LOCKOUT_LIMIT; i++) await (await guard.reserve('admin', '203.0.113.9')).failed();
  }

  it('setting the wall clock back an hour does not lengthen a lockout; it ends after its 15 minutes', async () => {
    let mono = 1_000;
    const cache = new MemoryCache({ clock: () => mono });
    const guard = new LoginGuard(cache, settings, quietLog);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-05-01T12:00:00.000Z'));
    try {
      await lockOut(guard);
      expect(await lockedOut(guard)).toBe(LOCKOUT_WINDOW_S);
      vi.setSystemTime(Date.parse('2026-05-01T11:00:00.000Z'));
      mono += 10 * 60_000;
      vi.setSystemTime(Date.parse('2026-05-01T11:10:00.000Z'));
      expect(await lockedOut(guard)).toBe(5 * 60);
      mono += 5 * 60_000 + 1;
      vi.setSystemTime(Date.parse('2026-05-01T11:15:00.001Z'));
      expect(await lockedOut(guard)).toBeNull();
    } finally {
      await cache.close();
    }
  });

  it('setting the wall clock forward an hour does not end a lockout early', async () => {
    const mono = 1_000;
    const cache = new MemoryCache({ clock: () => mono });
    const guard = new LoginGuard(cache, settings, quietLog);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-05-01T12:00:00.000Z'));
    try {
      await lockOut(guard);
      vi.setSystemTime(Date.parse('2026-05-01T13:00:00.000Z'));
      expect(await lockedOut(guard)).toBe(LOCKOUT_WINDOW_S);
    } finally {
      await cache.close();
    }
  });
});
