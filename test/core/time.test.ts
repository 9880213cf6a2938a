/** Date filters: a date is a whole Asia/Shanghai day; a datetime without an offset is Shanghai time. ISO text of heartbeat times. */
import { describe, expect, it } from 'vitest';
import { IsoClock, parseDateBound, parseDateTimeShanghai, shanghaiDay } from '../../src/core/time.js';

describe('parseDateBound', () => {
  it.each([
    ['2026-11-24', 'from', '2026-11-23T16:00:00.000Z'],
    ['2026-11-24', 'to', '2026-11-24T15:59:59.999Z'],
    [' 2026-11-24 ', 'from', '2026-11-23T16:00:00.000Z'],
    ['2024-02-29', 'to', '2024-02-29T15:59:59.999Z'],
    ['2026-11-24T08:30', 'from', '2026-11-24T00:30:00.000Z'],
    ['2026-11-24 08:30:15', 'to', '2026-11-24T00:30:15.000Z'],
    ['2026-11-24T08:30:00Z', 'from', '2026-11-24T08:30:00.000Z'],
    ['2026-11-24T08:30:00+02:00', 'from', '2026-11-24T06:30:00.000Z'],
    ['2026-11-24T00:00:00.123456', 'from', '2026-11-23T16:00:00.123Z'],
  ] as const)('%s as %s → %s', (value, bound, expected) => {
    expect(parseDateBound(value, bound, 'date_from')).toBe(expected);
  });

  it.each(['2026-13-01', '2026-02-30', '2023-02-29', '24-11-2026', 'yesterday', '', '2026-11-24T25:00', '2026-11-24T08'])('refuses %j with a 422 naming the field', (value) => {
    expect(() => parseDateBound(value, 'from', 'date_to')).toThrow(expect.objectContaining({ statusCode: 422, message: expect.stringContaining('date_to') }));
  });
});

describe('Shanghai days', () => {
  it.each([
    ['2026-11-23T15:59:59.999Z', '2026-11-23'],
    ['2026-11-23T16:00:00.000Z', '2026-11-24'],
  ])('%s falls on %s', (at, day) => {
    expect(shanghaiDay(at)).toBe(day);
  });

  it('reads an offset-less datetime as UTC+8', () => {
    expect(parseDateTimeShanghai('2026-01-01T00:00', 'fire_at').toISOString()).toBe('2025-12-31T16:00:00.000Z');
  });
});

describe('IsoClock', () => {
  it('answers exactly toISOString, forward, backward, across seconds, days and the edges of its form', () => {
    const clock = new IsoClock();
    const start = Date.parse('2026-12-31T23:59:58.990Z');
    const times: number[] = [];
    for (let ms = start; ms < start + 2_100; ms += 7) times.push(ms, ms, ms + 1);
    times.push(start, start - 86_400_000, 0, -1, -62_198_755_200_001, 253_402_300_799_999, 253_402_300_800_000, start + 999, start);
    for (const ms of times) expect(clock.at(ms), String(ms)).toBe(new Date(ms).toISOString());
  });
});
