/** The shared background loop: no overlapping runs, errors reported and survived, stop waits. */
import { describe, expect, it } from 'vitest';
import { every } from '../../src/core/periodic.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('every', () => {
  it('never starts a run while the previous one is still going', async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const loop = every(5, async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(30);
      active--;
      runs++;
    }, () => {});
    await sleep(120);
    await loop.stop();
    expect(maxActive).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(2);
  });

  it('reports a failed run and carries on', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const loop = every(5, async () => {
      calls++;
      if (calls === 1) throw new Error('first run fails');
    }, (err) => errors.push(err));
    await sleep(60);
    await loop.stop();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('first run fails');
    expect(calls).toBeGreaterThan(1);
  });

  it('stop waits for the run in progress and no run starts after it', async () => {
    let finished = false;
    let started = 0;
    const loop = every(5, async () => {
      started++;
      await sleep(40);
      finished = true;
    }, () => {});
    await sleep(15);
    expect(started).toBe(1);
    await loop.stop();
    expect(finished).toBe(true);
    const after = started;
    await sleep(30);
    expect(started).toBe(after);
  });
});
