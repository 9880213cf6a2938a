/** The bench's shared arithmetic: the machine line, rotated rounds and their paired ratios. */
import { describe, expect, it } from 'vitest';
import { machineInfo, median } from '../../bench/lib.js';
import { pairedRatio, rotate } from '../../bench/support/push-fleet.js';
import { requireTool } from '../../bench/support/tools.js';

describe('bench machine line', () => {
  it('records cores, CPU, memory, Node and the measured cost of starting /bin/true', async () => {
    const m = await machineInfo(5);
    expect(m.cores).toBeGreaterThan(0);
    expect(m.cpu_model.length).toBeGreaterThan(0);
    expect(m.total_memory_mb).toBeGreaterThan(0);
    expect(m.node).toBe(process.version);
    expect(m.spawn_runs).toBe(5);
    expect(m.spawn_true_ms).toBeGreaterThan(0);
  });
});

describe('bench rounds', () => {
  it('rotates which side goes first, runs before(side) right before each side, pairs ratios within a round', async () => {
    const calls: string[] = [];
    const times: Record<string, number[]> = { a: [10, 30, 20], b: [10, 10, 10] };
    const side = (name: string) => async () => {
      calls.push(name);
      return times[name].shift()!;
    };
    const rounds = await rotate(3, (name) => calls.push(`before ${name}`), { a: side('a'), b: side('b') });
    expect(rounds.map((r) => r.order.join(''))).toEqual(['ab', 'ba', 'ab']);
    expect(calls.slice(0, 4)).toEqual(['before a', 'a', 'before b', 'b']);
    expect(calls.slice(4, 8)).toEqual(['before b', 'b', 'before a', 'a']);
    // Per-round ratios 1, 3, 2: the median, not the ratio of sums (60/30 = 2 here too, but by accident).
    expect(pairedRatio(rounds, 'a', 'b')).toBe(2);
    expect(median([3, 1, 2, 10])).toBe(2.5);
  });
});

describe('bench peer tools', () => {
  it('returns a tool that exists without installing anything', () => {
    expect(requireTool(['/nonexistent/tool', '/bin/true'], 'coreutils')).toBe('/bin/true');
  });
});
