/** The one-shot picker edits Asia/Shanghai wall-clock time, whatever the browser's zone. */
import { afterAll, describe, expect, it } from 'vitest';
import { shanghaiWallClock } from '../../../src/pages/schedules/schedule-time';

const hostTz = process.env.TZ;
afterAll(() => {
  if (hostTz === undefined) delete process.env.TZ;
  else process.env.TZ = hostTz;
});

describe('shanghaiWallClock', () => {
  it.each(['UTC', 'America/New_York', 'Asia/Kolkata'])('reads an instant on Shanghai’s clock in a browser in %s', (zone) => {
    process.env.TZ = zone;
    expect(shanghaiWallClock('2026-12-15T02:30:00.000Z')).toBe('2026-12-15 10:30:00');
    // Past midnight in Shanghai while still the day before in UTC.
    expect(shanghaiWallClock('2026-12-31T16:00:05.000Z')).toBe('2027-01-01 00:00:05');
  });

  it('has nothing to show for no or a bad value', () => {
    expect(shanghaiWallClock(null)).toBeNull();
    expect(shanghaiWallClock('not a date')).toBeNull();
  });
});
