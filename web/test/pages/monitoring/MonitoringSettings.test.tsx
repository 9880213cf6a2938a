/** Thresholds and notify switches: one PUT per key, the service's answer (stored value or refusal) on the field. */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../src/api/session';
import { MonitoringSettings } from '../../../src/pages/monitoring/MonitoringSettings';
import { json, renderWithProviders } from '../../render';
import { fakeApi } from '../history/fake-api';

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

const stored = [
  { key: 'cpu_alert_threshold', value: '80', value_set: null, updated_at: '2026-11-26T10:00:00.000Z' },
  { key: 'notify_recovery', value: 'false', value_set: null, updated_at: '2026-11-26T10:00:00.000Z' },
];

describe('MonitoringSettings', () => {
  it('shows stored values and defaults, and saves a threshold with the stored answer under it', async () => {
    const sent = fakeApi((r) => (r.method === 'PUT' ? json(200, { key: r.path.split('/').pop(), value: String((r.body as { value: string }).value) }) : undefined));
    renderWithProviders(<MonitoringSettings settings={stored} />);
    const cpu = screen.getByRole('textbox', { name: 'CPU alert at (%)' });
    expect((cpu as HTMLInputElement).value).toBe('80');
    expect((screen.getByRole('textbox', { name: 'Memory alert at (%)' }) as HTMLInputElement).value).toBe('90');
    expect(screen.getAllByText(/Default: 90/).length).toBe(3);
    // Unset switches are on (as the service reads them); a stored "false" is off.
    expect((screen.getByRole('switch', { name: 'CPU alerts' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('switch', { name: 'Recoveries' }) as HTMLInputElement).checked).toBe(false);

    await userEvent.clear(cpu);
    await userEvent.type(cpu, '85');
    await userEvent.click(screen.getByRole('button', { name: 'Save CPU alert at (%)' }));
    expect(await screen.findByText('Saved: 85')).toBeTruthy();
    expect(sent.filter((r) => r.method === 'PUT')).toEqual([expect.objectContaining({ path: '/api/settings/cpu_alert_threshold', body: { value: '85' } })]);
  });

  it("shows the service's refusal on the field, and puts a refused switch back", async () => {
    fakeApi((r) => (r.method === 'PUT' ? json(400, { detail: 'cpu_alert_threshold must be an integer 1..100', code: 'setting_invalid_value' }) : undefined));
    renderWithProviders(<MonitoringSettings settings={stored} />);
    const cpu = screen.getByRole('textbox', { name: 'CPU alert at (%)' });
    await userEvent.clear(cpu);
    await userEvent.type(cpu, '150');
    await userEvent.click(screen.getByRole('button', { name: 'Save CPU alert at (%)' }));
    expect(await screen.findByText('This value is not allowed: cpu_alert_threshold must be an integer 1..100')).toBeTruthy();
    expect(cpu.getAttribute('aria-invalid')).toBe('true');

    const sw = screen.getByRole('switch', { name: 'Disk alerts' }) as HTMLInputElement;
    await userEvent.click(sw);
    await waitFor(() => expect(screen.getAllByText(/This value is not allowed/).length).toBe(2));
    expect(sw.checked).toBe(true);
  });

  it('turns a switch off with one PUT and confirms the stored value', async () => {
    const sent = fakeApi((r) => (r.method === 'PUT' ? json(200, { key: 'notify_alert_cpu', value: 'false' }) : undefined));
    renderWithProviders(<MonitoringSettings settings={stored} />);
    await userEvent.click(screen.getByRole('switch', { name: 'CPU alerts' }));
    expect(await screen.findByText('Saved: off')).toBeTruthy();
    expect(sent.filter((r) => r.method === 'PUT')).toEqual([expect.objectContaining({ path: '/api/settings/notify_alert_cpu', body: { value: 'false' } })]);
  });
});
