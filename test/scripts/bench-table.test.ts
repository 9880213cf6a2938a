/** The README's performance table: every scenario in bench/scenarios has its peer named, and a row reads as the results say. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PEERS, benchTable } from '../../scripts/bench-table.js';

describe('bench table', () => {
  it('names a peer for every scenario and renders rows, errors and the machine line', () => {
    const scenarios = fs.readdirSync(path.resolve(import.meta.dirname, '../../bench/scenarios')).map((f) => f.replace(/\.ts$/, ''));
    expect(scenarios.filter((s) => !PEERS[s])).toEqual([]);
    const table = benchTable({
      at: '2026-11-27T02:00:00Z',
      machine: { cores: 2, cpu_model: 'EPYC', total_memory_mb: 24000, node: 'v20', spawn_true_ms: 1.4, loadavg_1m: 0.1 },
      scenarios: {
        'verify-10k': { value: 1000, unit: 'ms', baseline: 900, ratio: 1.11, goal: '<= 1.3', pass: true },
        memory: { error: 'exited 1', pass: false },
      },
    });
    expect(table).toContain('2 cores (EPYC)');
    expect(table).toContain('| verify-10k | 1000 ms | local and remote sha256sum at the same time (one ssh connection) | 900 | 1.11 | <= 1.3 | pass |');
    expect(table).toContain('| memory | error: exited 1 |');
  });
});
