/**
 * The in-process memo of queued dedup keys: only answers "seen" for its own keys inside the window,
 * stays bounded, and lets one call at a time queue a key.
 */
import { describe, expect, it } from 'vitest';
import { DedupMemo } from '../../../src/platform/notifications/dedup-memo.js';

describe('DedupMemo', () => {
  it('answers seen only when every key was queued here inside the window', () => {
    const m = new DedupMemo();
    m.remember(['a', 'b'], 1_000, 0);
    expect(m.allSeen(['a', 'b'], 500)).toBe(true);
    expect(m.allSeen(['a', 'c'], 500)).toBe(false);
    expect(m.allSeen(['a'], 1_001)).toBe(false);
    expect(m.allSeen([], 0)).toBe(false);
  });

  it('keeps at most max keys, dropping expired ones first, then the oldest', () => {
    const m = new DedupMemo(2);
    m.remember(['old'], 1, 0);
    m.remember(['x'], 10, 0);
    m.remember(['y'], 20, 5);
    expect(m.allSeen(['old'], 0)).toBe(false);
    expect(m.allSeen(['x', 'y'], 0)).toBe(true);
    m.remember(['z'], 30, 0);
    expect(m.allSeen(['x'], 0)).toBe(false);
    expect(m.allSeen(['y', 'z'], 0)).toBe(true);
  });

  it('holds a key for one caller at a time; others wait for its release, callers of other keys do not', async () => {
    const m = new DedupMemo();
    const order: string[] = [];
    const first = await m.hold(['a', 'b']);
    const second = m.hold(['b']).then((release) => {
      order.push('second');
      return release;
    });
    const other = m.hold(['c']).then((release) => {
      order.push('other');
      return release;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['other']);
    first();
    const releaseSecond = await second;
    expect(order).toEqual(['other', 'second']);
    // A third waiter of the same key waits for the second, never runs beside it.
    let third = false;
    const thirdHeld = m.hold(['b']).then((release) => {
      third = true;
      return release;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(third).toBe(false);
    releaseSecond();
    (await thirdHeld)();
    (await other)();
    expect(third).toBe(true);
    (await m.hold([]))();
  });
});
