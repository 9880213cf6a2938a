/** A preset's secret is asked for with the admin's password; a wrong one shows the translated refusal. */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../src/api/session';
import { RevealDialog } from '../../../src/pages/credentials/RevealDialog';
import { json, renderWithProviders } from '../../render';

let bodies: Array<{ url: string; body: unknown }>;

beforeEach(() => {
  bodies = [];
  saveSession({ access: 'A', refresh: 'R', accessExpiresAt: Date.now() + 600_000 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      const body = JSON.parse(String(init.body ?? '{}')) as { current_password?: string };
      bodies.push({ url, body });
      if (body.current_password !== 'right-password') return json(400, { detail: 'Current password is incorrect', code: 'wrong_password' });
      if (url === '/api/presets/7/reveal') return json(200, { id: 7, name: 'ops', password: 'hunter2-secret' });
      if (url === '/api/ssh-key-presets/8/reveal') return json(200, { id: 8, name: 'k', private_key: '-----BEGIN KEY-----', public_key: '' });
      return json(404, { detail: 'no', code: 'not_found' });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

describe('RevealDialog', () => {
  it('refuses a wrong password in words, then shows the password for the right one', async () => {
    const user = userEvent.setup();
    renderWithProviders(<RevealDialog target={{ kind: 'password', id: 7, name: 'ops' }} onClose={() => {}} />);
    const field = await screen.findByLabelText(/Your password/);
    await user.type(field, 'wrong');
    await user.click(screen.getByRole('button', { name: 'Reveal' }));
    expect(await screen.findByText('Your current password is not correct.')).toBeTruthy();
    expect(screen.queryByText('hunter2-secret')).toBeNull();
    await user.clear(field);
    await user.type(field, 'right-password');
    await user.click(screen.getByRole('button', { name: 'Reveal' }));
    expect(await screen.findByText('hunter2-secret')).toBeTruthy();
    expect(bodies.map((b) => b.url)).toEqual(['/api/presets/7/reveal', '/api/presets/7/reveal']);
    expect(bodies[1].body).toEqual({ current_password: 'right-password' });
  });

  it('reveals an SSH key preset through its own endpoint', async () => {
    const user = userEvent.setup();
    renderWithProviders(<RevealDialog target={{ kind: 'ssh_key', id: 8, name: 'k' }} onClose={() => {}} />);
    await user.type(await screen.findByLabelText(/Your password/), 'right-password');
    await user.click(screen.getByRole('button', { name: 'Reveal' }));
    expect(await screen.findByText('-----BEGIN KEY-----')).toBeTruthy();
  });
});
