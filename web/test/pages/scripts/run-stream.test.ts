import type { ScriptEvent } from '@server/platform/events/live-events.schemas';
import { describe, expect, it } from 'vitest';
import type { Reply } from '../../../src/api/typed';
import { applyEvents, emptyRun, outputText, seedFromDetail } from '../../../src/pages/scripts/run-stream';
import { runLabel, serverErrorText } from '../../../src/pages/scripts/run-text';

const R = 'r1';
const events: ScriptEvent[] = [
  { type: 'script_started', run_id: R, seq: 1, label: 'deploy', script_id: 3, operator: 'admin', total: 2, servers: [{ server_id: 1, server_name: 'a' }, { server_id: 2, server_name: 'b' }] },
  { type: 'script_progress', run_id: R, seq: 2, server_id: 1, server_name: 'a', status: 'running' },
  { type: 'script_output', run_id: R, seq: 3, server_id: 1, stream: 'stdout', data: 'one\n' },
  { type: 'script_progress', run_id: R, seq: 4, server_id: 2, server_name: 'b', status: 'running' },
  { type: 'script_output', run_id: R, seq: 5, server_id: 1, stream: 'stderr', data: 'warn\n' },
  { type: 'script_output', run_id: R, seq: 6, server_id: 2, stream: 'stdout', data: 'two\n' },
  { type: 'script_progress', run_id: R, seq: 7, server_id: 1, server_name: 'a', status: 'finished', exit_code: 0, error: null, duration_ms: 900, stdout: 'one\n', stderr: 'warn\n' },
  { type: 'script_progress', run_id: R, seq: 8, server_id: 2, server_name: 'b', status: 'finished', exit_code: 3, error: null, duration_ms: 800, stdout: 'two\n', stderr: '' },
  { type: 'script_complete', run_id: R, seq: 9, label: 'deploy', script_id: 3, status: 'partial', total: 2, succeeded: 1, failed: 1, duration_ms: 1000 },
];

type Detail = Reply<'GET /api/scripts/runs/{run_id}'>;
const detail = (over: Partial<Detail> = {}): Detail => ({
  run_id: R, label: 'deploy', script_id: 3, schedule_id: null, operator: 'admin', status: 'running', total: 2, succeeded: 0, failed: 0, server_ids: [1, 2],
  started_at: '2026-11-26T10:00:00.000Z', finished_at: null, duration_ms: null,
  servers: [1, 2].map((id) => ({ server_id: id, server_name: id === 1 ? 'a' : 'b', status: 'pending' as const, exit_code: null, duration_ms: null, error: null, stdout: '', stderr: '' })),
  ...over,
});

describe('script run stream', () => {
  it('applies a run in order: output per server (both streams, in order), exit codes, the outcome', () => {
    const s = applyEvents(emptyRun, events);
    expect([s.lastSeq, s.status, s.label, s.operator, s.order]).toEqual([9, 'partial', 'deploy', 'admin', [1, 2]]);
    expect(s.servers[1]).toMatchObject({ status: 'success', exit_code: 0, duration_ms: 900 });
    expect(s.servers[1].chunks).toEqual([{ stream: 'stdout', data: 'one\n' }, { stream: 'stderr', data: 'warn\n' }]);
    expect(s.servers[2]).toMatchObject({ status: 'failed', exit_code: 3 });
    expect(outputText(s.servers[2])).toBe('two\n');
  });

  it('drops duplicates and holds messages behind a gap until it is filled (a reload or a reconnect)', () => {
    let s = applyEvents(emptyRun, events.slice(0, 3));
    // The socket delivers 6 before 4 and 5 are known, then the journal replays 3..6.
    s = applyEvents(s, [events[5]]);
    expect(s.lastSeq).toBe(3);
    expect(outputText(s.servers[2] ?? { chunks: [] } as never)).toBe('');
    s = applyEvents(s, events.slice(2, 6));
    s = applyEvents(s, events.slice(0, 6));
    expect(s.lastSeq).toBe(6);
    expect(outputText(s.servers[1])).toBe('one\nwarn\n');
    expect(outputText(s.servers[2])).toBe('two\n');
  });

  it('an ended server shown from its stored output takes no live chunk after it (no line twice)', () => {
    // The journal was read to its end while the output message was still behind a gap: the
    // detail's stored stderr is shown; the message arriving afterwards is the same output.
    let s = applyEvents(emptyRun, events.slice(0, 2));
    const ended = detail({
      status: 'failed',
      servers: [
        { server_id: 1, server_name: 'a', status: 'failed', exit_code: 3, duration_ms: 10, error: null, stdout: '', stderr: 'about to fail\n' },
        { server_id: 2, server_name: 'b', status: 'pending', exit_code: null, duration_ms: null, error: null, stdout: '', stderr: '' },
      ],
    });
    s = seedFromDetail(s, ended, true);
    expect(outputText(s.servers[1])).toBe('about to fail\n');
    s = applyEvents(s, [{ type: 'script_output', run_id: R, seq: 3, server_id: 1, stream: 'stderr', data: 'about to fail\n' }]);
    expect(s.lastSeq).toBe(3);
    expect(outputText(s.servers[1])).toBe('about to fail\n');
  });

  it('a stream cut at its cap shows the stored tails when the server ends', () => {
    const cut: ScriptEvent[] = [
      events[0],
      { type: 'script_output', run_id: R, seq: 2, server_id: 1, stream: 'stdout', data: 'head…' },
      { type: 'script_output', run_id: R, seq: 3, server_id: 1, stream: 'stdout', data: '', truncated: true },
      { type: 'script_output', run_id: R, seq: 4, server_id: 1, stream: 'stdout', data: 'ignored' },
    ];
    let s = applyEvents(emptyRun, cut);
    expect(s.servers[1]).toMatchObject({ truncated: true });
    expect(outputText(s.servers[1])).toBe('head…');
    s = applyEvents(s, [{ type: 'script_progress', run_id: R, seq: 5, server_id: 1, server_name: 'a', status: 'finished', exit_code: 0, stdout: '…tail', stderr: 'err' }]);
    expect(outputText(s.servers[1])).toBe('…tailerr');
  });

  it('seeds servers from the stored run; stored tails only once the journal has been read (final)', () => {
    const ended = detail({
      status: 'failed',
      servers: [{ server_id: 1, server_name: 'a', status: 'failed', exit_code: null, duration_ms: 5, error: 'Server not found', stdout: 'x', stderr: '' }],
    });
    expect(seedFromDetail(emptyRun, ended).servers[1].chunks).toEqual([]);
    const s = seedFromDetail(emptyRun, ended, true);
    expect(s.servers[1]).toMatchObject({ status: 'failed', error: 'Server not found' });
    expect(outputText(s.servers[1])).toBe('x');
    // Chunks already replayed are kept as they are (no doubling with the tails).
    const live = applyEvents(emptyRun, events);
    expect(outputText(seedFromDetail(live, detail({ status: 'partial', servers: [{ ...ended.servers[0], status: 'success', exit_code: 0, stdout: 'one\n', stderr: 'warn\n' }] }), true).servers[1])).toBe('one\nwarn\n');
    expect(seedFromDetail(emptyRun, detail()).order).toEqual([1, 2]);
  });

  it('translates the inline label and the service error texts', () => {
    const t = (k: string, o?: Record<string, unknown>) => `${k}${o ? JSON.stringify(o) : ''}`;
    expect(runLabel('inline script', t)).toBe('scripts.inlineScript');
    expect(runLabel('deploy', t)).toBe('deploy');
    expect(serverErrorText('Timed out after 60 s', t)).toBe('scripts.errTimedOut{"seconds":60}');
    expect(serverErrorText('Server not found', t)).toBe('scripts.errServerNotFound');
    expect(serverErrorText('connect ECONNREFUSED', t)).toBe('connect ECONNREFUSED');
  });
});
