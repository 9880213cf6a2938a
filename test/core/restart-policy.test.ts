import { describe, expect, it } from 'vitest';
import { RestartPolicy } from '../../src/core/restart-policy.js';

describe('worker restart policy', () => {
  const o = { baseMs: 1_000, maxMs: 5_000, stableMs: 60_000, limit: 5 };

  it('waits twice as long after each crash of a worker that never ran stably, up to the cap, then gives up', () => {
    const p = new RestartPolicy(o);
    // However slowly they start (40 s each here), workers that die before running stably are one streak.
    expect([1, 2, 3, 4].map(() => p.onCrash(40_000))).toEqual([
      { action: 'restart', delayMs: 1_000, streak: 1 },
      { action: 'restart', delayMs: 2_000, streak: 2 },
      { action: 'restart', delayMs: 4_000, streak: 3 },
      { action: 'restart', delayMs: 5_000, streak: 4 },
    ]);
    expect(p.onCrash(10)).toEqual({ action: 'give-up', streak: 5 });
  });

  it('a worker that ran stably and died starts a new streak: it is simply replaced', () => {
    const p = new RestartPolicy(o);
    for (let i = 0; i < 4; i++) p.onCrash(100);
    expect(p.onCrash(3_600_000)).toEqual({ action: 'restart', delayMs: 1_000, streak: 1 });
  });
});
