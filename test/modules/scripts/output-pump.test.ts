import { describe, expect, it, vi } from 'vitest';
import { OutputPump } from '../../../src/modules/scripts/output-pump.js';

type Msg = { stream: 'stdout' | 'stderr'; data: string; truncated?: boolean };

describe('script output pump', () => {
  it('gathers chunks for a moment, keeps the streams apart and in order, and never splits a UTF-8 character', () => {
    vi.useFakeTimers();
    try {
      const out: Msg[] = [];
      const p = new OutputPump((m) => out.push(m));
      const euro = Buffer.from('€'); // 3 bytes
      p.push('stdout', Buffer.from('a'));
      p.push('stdout', euro.subarray(0, 1));
      expect(out).toEqual([]); // gathered, not sent per byte
      p.push('stdout', euro.subarray(1));
      p.push('stderr', Buffer.from('e'));
      expect(out).toEqual([{ stream: 'stdout', data: 'a€' }]); // the stream changed: what was gathered goes first
      vi.advanceTimersByTime(250);
      expect(out).toEqual([{ stream: 'stdout', data: 'a€' }, { stream: 'stderr', data: 'e' }]);
      p.flush(true);
      expect(out).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops at its cap with one truncated message', () => {
    const out: Msg[] = [];
    const p = new OutputPump((m) => out.push(m), 10);
    p.push('stdout', Buffer.from('12345678'));
    p.push('stdout', Buffer.from('abcdef'));
    p.push('stdout', Buffer.from('more'));
    p.flush(true);
    expect(out).toEqual([{ stream: 'stdout', data: '12345678ab' }, { stream: 'stdout', data: '', truncated: true }]);
  });
});
