/**
 * The schedules page against a stubbed API: the list shows the next run in Asia/Shanghai and the
 * browser's zone and the last result; the edit form sends the whole schedule, its one-shot time as
 * Shanghai wall-clock text; a bad cron is refused on the field without a request.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScheduleView } from '../../../src/api/resources/schedules';
import SchedulesPage from '../../../src/pages/schedules/SchedulesPage';
import { json, renderWithProviders } from '../../render';
import { fakeApi } from '../history/fake-api';

vi.mock('../../../src/api/socket', () => ({ liveSocket: { onMessage: () => () => {} } }));

function schedule(over: Partial<ScheduleView> = {}): ScheduleView {
  return {
    id: 5, name: 'nightly', source_path: '/tmp/up_site', target_path: null, server_ids: [1], run_mode: 'cron', cron_expr: '0 9 * * *',
    fire_at: null, sync_mode: 'incremental', enabled: true, schedule_type: 'push', script_id: null, script_content: null, exec_timeout: 60,
    long_task: false, last_run_at: null, next_run: '2026-11-27T01:00:00.000Z', created_at: '2026-11-26T00:00:00.000Z', last_result: null,
    ...over,
  };
}

const common = (path: string) => {
  if (path === '/api/servers/search') return json(200, { items: [], total: 0, limit: 25, offset: 0 });
  if (path === '/api/servers/tags') return json(200, []);
  if (path === '/api/scripts') return json(200, []);
  if (path === '/api/sync/staging-dirs') return json(200, { items: [], truncated: false });
  return undefined;
};

afterEach(() => vi.unstubAllGlobals());
// jsdom has no FontFaceSet; Mantine's autosize textarea (the script text) listens to it.
if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} } });

describe('SchedulesPage', () => {
  it('lists next run in both zones, labelled, and the last result', async () => {
    const run = {
      id: 1, schedule_id: 5, schedule_type: 'push', slot: '2026-11-26T01:00:00.000Z', started_at: '2026-11-26T01:00:01.000Z',
      finished_at: '2026-11-26T01:00:03.000Z', status: 'partial', batch_id: 'b1', run_id: null, total: 3, succeeded: 2, failed: 1, error: null,
    };
    fakeApi((r) => (r.path === '/api/schedules' ? json(200, [schedule({ last_result: run as ScheduleView['last_result'] })]) : common(r.path)));
    renderWithProviders(<SchedulesPage />, { path: '/schedules', route: '/schedules/*' });
    const table = await screen.findByRole('table', { name: 'Schedules' });
    const row = within(table).getByRole('link', { name: 'nightly' }).closest('tr')!;
    expect(row.textContent).toMatch(/\(Asia\/Shanghai\)/);
    expect(row.textContent).toMatch(/your time/);
    expect(row.textContent).toContain('Partial');
    expect(row.textContent).toContain('2 of 3 succeeded');
  });

  it('edit sends the whole schedule; a one-shot time goes as Shanghai wall-clock text', async () => {
    const once = schedule({
      schedule_type: 'script', source_path: null, run_mode: 'once', cron_expr: null, fire_at: '2030-12-15T02:30:00.000Z', script_content: 'echo hi',
      next_run: '2030-12-15T02:30:00.000Z',
    });
    const sent = fakeApi((r) => {
      if (r.path === '/api/schedules' && r.method === 'GET') return json(200, [once]);
      if (r.path === '/api/schedules/5' && r.method === 'PUT') return json(200, { ...once, ...(r.body as object) });
      if (r.path === '/api/schedules/5/runs') return json(200, { items: [], total: 0, page: 1, per_page: 20 });
      return common(r.path);
    });
    renderWithProviders(<SchedulesPage />, { path: '/schedules/5/edit', route: '/schedules/*' });
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'renamed');
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'PUT')).toBe(true));
    const body = sent.find((r) => r.method === 'PUT')!.body;
    expect(body).toMatchObject({
      name: 'renamed', schedule_type: 'script', run_mode: 'once', fire_at: '2030-12-15 10:30:00', cron_expr: null, script_content: 'echo hi',
      script_id: null, server_ids: [1], enabled: true,
    });
  });

  it('a bad cron expression is refused on the field, nothing is sent', async () => {
    const sent = fakeApi((r) => (r.path === '/api/schedules' ? json(200, [schedule()]) : common(r.path)));
    renderWithProviders(<SchedulesPage />, { path: '/schedules/5/edit', route: '/schedules/*' });
    const cron = await screen.findByRole('textbox', { name: /Cron expression/ });
    await userEvent.clear(cron);
    await userEvent.type(cron, '0 25 * * *');
    expect(cron.getAttribute('aria-invalid')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(screen.getByText('This is not a valid cron expression.')).toBeTruthy();
    expect(sent.some((r) => r.method === 'PUT')).toBe(false);
  });
});
