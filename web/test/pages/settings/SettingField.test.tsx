/** One setting saved on its own: refused in the browser by its served rule, the service's answer under it. */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SettingDescriptor } from '../../../src/api/resources/settings';
import { saveSession } from '../../../src/api/session';
import { SettingField } from '../../../src/pages/settings/SettingField';
import { json, renderWithProviders } from '../../render';
import { fakeApi } from '../history/fake-api';

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

const timeout: SettingDescriptor = {
  key: 'heartbeat_timeout',
  group: 'monitoring',
  schema: { type: 'integer', minimum: 10, maximum: 600 },
  secret: false,
  immutable: false,
  api_key_may_change: true,
  default: null,
};

describe('SettingField', () => {
  it('refuses a value outside the served range without sending it, then saves one inside', async () => {
    const sent = fakeApi((r) => (r.method === 'PUT' ? json(200, { key: 'heartbeat_timeout', value: (r.body as { value: string }).value }) : undefined));
    const user = userEvent.setup();
    renderWithProviders(<SettingField d={timeout} stored={{ value: '90', value_set: null }} />);
    const input = screen.getByRole('textbox', { name: 'Heartbeat timeout (seconds)' });
    await user.clear(input);
    await user.type(input, '601');
    expect(screen.getByText('Enter a number from 10 to 600.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save Heartbeat timeout (seconds)' }));
    expect(sent.filter((r) => r.method === 'PUT')).toEqual([]);

    await user.clear(input);
    await user.type(input, '600');
    expect(screen.queryByText('Enter a number from 10 to 600.')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save Heartbeat timeout (seconds)' }));
    await waitFor(() => expect(sent.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(sent.find((r) => r.method === 'PUT')).toMatchObject({ path: '/api/settings/heartbeat_timeout', body: { value: '600' } });
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  it("shows the service's refusal under the field, translated by its code", async () => {
    fakeApi((r) =>
      r.method === 'PUT' ? json(403, { detail: 'This action needs an administrator login, not the API key', code: 'api_key_refused' }) : undefined,
    );
    const user = userEvent.setup();
    renderWithProviders(<SettingField d={timeout} stored={{ value: '90', value_set: null }} />);
    const input = screen.getByRole('textbox', { name: 'Heartbeat timeout (seconds)' });
    await user.clear(input);
    await user.type(input, '120');
    await user.click(screen.getByRole('button', { name: 'Save Heartbeat timeout (seconds)' }));
    expect(await screen.findByText('The API key cannot do this. Sign in as an administrator.')).toBeTruthy();
  });
});
