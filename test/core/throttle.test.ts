import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttleLatest } from '../../src/core/throttle.js';

describe('throttleLatest', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes the first value at once and then the newest at most once per interval', () => {
    const out: number[] = [];
    const t = throttleLatest<number>(500, (v) => out.push(v), () => Date.now());
    t.push(1);
    t.push(2);
    t.push(3);
    expect(out).toEqual([1]);
    vi.advanceTimersByTime(499);
    expect(out).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(out).toEqual([1, 3]);
    for (let i = 4; i < 40; i++) {
      t.push(i);
      vi.advanceTimersByTime(50);
    }
    // 1.8 s of pushes every 50 ms: at most one value per 500 ms went out.
    expect(out.length).toBeLessThanOrEqual(2 + 4);
    vi.advanceTimersByTime(500);
    expect(out.at(-1)).toBe(39);
  });

  it('cancel drops the value still waiting', () => {
    const out: number[] = [];
    const t = throttleLatest<number>(500, (v) => out.push(v), () => Date.now());
    t.push(1);
    t.push(2);
    t.cancel();
    vi.advanceTimersByTime(1000);
    expect(out).toEqual([1]);
  });
});
