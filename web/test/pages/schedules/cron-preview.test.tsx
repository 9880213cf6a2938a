/**
 * The cron preview the console shows while typing is the service's own answer: the browser-side
 * function (`nextCronRuns`, what CronField renders) is compared with the service's `next_run`
 * computation (schedule-timing's nextRunOf, chained as the scheduler advances `last_run_at`) for a
 * table of expressions, starting instants and browser zones — DST zones and DST-free ones (Shanghai,
 * Kolkata) — so a preview can never drift from what the service will do.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { checkCron, nextCronRuns } from '@server/modules/schedules/cron-rules';
import { nextRunOf, parseCron } from '@server/modules/schedules/schedule-timing';
import { useState } from 'react';
import { afterAll, describe, expect, it } from 'vitest';
import { CronField } from '../../../src/pages/schedules/CronField';
import { renderWithProviders } from '../../render';

const EXPRESSIONS = [
  '0 9 * * *', '*/15 * * * *', '30 2 * * 1-5', '0 0 1 * *', '15 14 29 2 *', '0 */6 * * 0,6', '5 4 * * sun', '0 0 L * *',
  '0 12 * JAN,JUL *', '59 23 31 12 *', '0 2 * * *', '30 1 * * *',
];
/** Browser zones: DST ones (New York, London, Lord Howe's half hour) and DST-free ones. */
const ZONES = ['UTC', 'Asia/Shanghai', 'Asia/Kolkata', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Pacific/Chatham'];
/** Starting instants, some on the DST changes of those zones (2026). */
const FROM = ['2026-11-26T10:17:00.000Z', '2026-03-08T06:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-12-31T15:59:30.000Z', '2026-04-04T15:00:00.000Z'];

/** The service's answer: next_run of a cron schedule created at `from`, then after each run. */
function serviceRuns(expr: string, from: Date, count: number): string[] {
  const out: string[] = [];
  let last: string | null = null;
  for (let i = 0; i < count; i++) {
    const next = nextRunOf({ enabled: 1, run_mode: 'cron', cron_expr: expr, fire_at: null, last_run_at: last, created_at: from.toISOString() }, from);
    if (!next) break;
    out.push(next);
    last = next;
  }
  return out;
}

const hostTz = process.env.TZ;
afterAll(() => {
  if (hostTz === undefined) delete process.env.TZ;
  else process.env.TZ = hostTz;
});

describe('the cron preview matches the service', () => {
  it.each(ZONES)('in a browser in %s, for every expression and start', (zone) => {
    process.env.TZ = zone;
    // The "browser" really is in that zone now (its local hour is the zone's).
    const probe = new Date('2026-01-15T12:00:00Z');
    expect(probe.getHours()).toBe(Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(probe)));
    for (const expr of EXPRESSIONS) {
      for (const f of FROM) {
        const browser = nextCronRuns(expr, 5, new Date(f));
        expect(browser, `${expr} from ${f}`).toHaveLength(5);
        expect(browser, `${expr} from ${f} in ${zone}`).toEqual(serviceRuns(expr, new Date(f), 5));
      }
    }
  });

  it('reads the expressions in Asia/Shanghai wall-clock time, whatever the browser zone', () => {
    process.env.TZ = 'America/New_York';
    // 09:00 in Shanghai is 01:00 UTC; 02:30 on weekdays is 18:30 UTC the day before.
    expect(nextCronRuns('0 9 * * *', 2, new Date('2026-11-26T10:17:00Z'))).toEqual(['2026-11-27T01:00:00.000Z', '2026-11-28T01:00:00.000Z']);
    expect(nextCronRuns('30 2 * * 1-5', 1, new Date('2026-11-27T19:00:00Z'))).toEqual(['2026-11-29T18:30:00.000Z']);
  });

  it('accepts and refuses exactly what the service does', () => {
    for (const expr of [...EXPRESSIONS, '61 * * * *', '* * * *', '* * * * * *', 'every day', '0 25 * * *', '*/0 * * * *', '', '0 0 30 2 *']) {
      let service = true;
      try {
        parseCron(expr);
      } catch {
        service = false;
      }
      expect(checkCron(expr).ok, expr).toBe(service);
    }
  });
});

function Harness() {
  const [v, setV] = useState('');
  return <CronField value={v} onChange={setV} touched={false} />;
}

describe('CronField', () => {
  it('shows the next five runs while typing, and a bad expression’s error on the field', async () => {
    process.env.TZ = 'UTC';
    renderWithProviders(<Harness />);
    const field = screen.getByRole('textbox', { name: /Cron expression/ });
    await userEvent.type(field, '*/15 * * * *');
    const list = await screen.findByRole('list', { name: 'Next five runs' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    const expected = nextCronRuns('*/15 * * * *', 5, new Date());
    // Rendered from the same function a moment later: at most the first match has moved on.
    expect(items.map((li) => li.getAttribute('data-run'))).toEqual(expect.arrayContaining(expected.slice(1, 4)));
    expect(items[0].textContent).toContain('(Asia/Shanghai)');
    expect(items[0].textContent).toContain('UTC');
    expect(field.getAttribute('aria-invalid')).not.toBe('true');

    await userEvent.clear(field);
    await userEvent.type(field, '61 * * * *');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('This is not a valid cron expression.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Next five runs' })).toBeNull();

    await userEvent.clear(field);
    await userEvent.type(field, '0 9 * *');
    expect(screen.getByText(/exactly five fields/)).toBeTruthy();
  });
});
