/** Sign-in against the API's real answers: each refusal says what happened; TOTP when asked. */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readSession, saveSession } from '../../../src/api/session';
import LoginPage from '../../../src/pages/login/LoginPage';
import { json, renderWithProviders } from '../../render';

type LoginAnswer = (body: Record<string, unknown>) => Response;

let logins: Array<Record<string, unknown>>;

/** The API: no wallpaper, /api/auth/login answered by `answer`, a fresh install when `initialFile` is set. */
function api(answer: LoginAnswer, initialFile: string | null = null) {
  logins = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      if (url === '/api/auth/login') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        logins.push(body);
        return answer(body);
      }
      if (url === '/api/auth/first-run') return json(200, { initial_password_file: initialFile });
      return json(404, { detail: `Not found: ${url}` });
    }),
  );
}

const TOKENS = { access_token: 'A1', refresh_token: 'R1', token_type: 'bearer', expires_in: 900 };

function renderLogin(path = '/login') {
  return renderWithProviders(<LoginPage />, {
    path,
    route: '/login',
    routes: { '/': <p>Dashboard page</p>, '/servers': <p>Servers page</p> },
  });
}

async function signIn(password = 'secret-pass') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^Username/, { selector: 'input' }), 'admin');
  await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

beforeEach(() => {
  saveSession(null);
});

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

describe('LoginPage', () => {
  it('signs in, keeps the tokens and goes where the user was going', async () => {
    api(() => json(200, TOKENS));
    renderLogin('/login?next=%2Fservers');
    await signIn();
    expect(await screen.findByText('Servers page')).toBeTruthy();
    expect(logins).toEqual([{ username: 'admin', password: 'secret-pass' }]);
    expect(readSession()).toMatchObject({ access: 'A1', refresh: 'R1' });
  });

  it.each(['%2F%2Fevil.example', '/%5Cevil.example', '%2F%255Cevil.example', 'https://evil.example/', 'javascript:alert(1)'])(
    'never follows a next that leaves the console (%s): the dashboard, no error',
    async (next) => {
      api(() => json(200, TOKENS));
      renderLogin(`/login?next=${next}`);
      await signIn();
      expect(await screen.findByText('Dashboard page')).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
    },
  );

  it('says so when the username or password is wrong', async () => {
    api(() => json(401, { detail: 'Invalid username or password', code: 'invalid_credentials' }));
    renderLogin();
    await signIn('wrong');
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong username or password.');
    expect(readSession()).toBeNull();
    expect(screen.getByLabelText(/^Username/, { selector: 'input' })).toBeTruthy();
  });

  it('tells how long a lockout lasts, from Retry-After', async () => {
    api(() => json(429, { detail: 'Too many failed attempts; try again later' }, { 'Retry-After': '847' }));
    renderLogin();
    await signIn();
    expect((await screen.findByRole('alert')).textContent).toBe('Too many failed attempts. Try again in 847 seconds.');
  });

  it('says when the network address is not allowed', async () => {
    api(() => json(403, { detail: 'ip_blocked', code: 'ip_blocked' }));
    renderLogin();
    await signIn();
    expect((await screen.findByRole('alert')).textContent).toBe('Sign-in is not allowed from your network address.');
  });

  it('asks for the TOTP code when the API wants one, and sends it with the password', async () => {
    api((body) => {
      if (!body.totp_code) return json(401, { detail: 'totp_required', code: 'totp_required' });
      return body.totp_code === '123456' ? json(200, TOKENS) : json(401, { detail: 'totp_invalid', code: 'totp_invalid' });
    });
    renderLogin();
    const user = await signIn();

    expect(await screen.findByRole('heading', { name: 'Two-factor code' })).toBeTruthy();
    // Asking for the code is no error.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByLabelText(/^Password/, { selector: 'input' })).toBeNull();

    // A wrong code: told so, the boxes are emptied for the next one.
    await user.type(screen.getByLabelText('Authentication code 1'), '654321');
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not valid. Wait for the next one and try again.');
    await waitFor(() => expect((screen.getByLabelText('Authentication code 1') as HTMLInputElement).value).toBe(''));

    // Typing the sixth digit submits.
    await user.type(screen.getByLabelText('Authentication code 1'), '123456');
    expect(await screen.findByText('Dashboard page')).toBeTruthy();
    expect(logins).toEqual([
      { username: 'admin', password: 'secret-pass' },
      { username: 'admin', password: 'secret-pass', totp_code: '654321' },
      { username: 'admin', password: 'secret-pass', totp_code: '123456' },
    ]);
    expect(readSession()?.access).toBe('A1');
  });

  it('shows that the session ended when sent back here for that reason', () => {
    api(() => json(200, TOKENS));
    renderLogin('/login?reason=expired');
    expect(screen.getByText('Your session ended. Sign in again to continue.')).toBeTruthy();
  });

  it('reports an unreachable service', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    renderLogin();
    await signIn();
    expect((await screen.findByRole('alert')).textContent).toBe('The service cannot be reached. Check your connection.');
  });

  it('on a fresh install, says where the generated password is kept; once used, says nothing', async () => {
    api(() => json(200, TOKENS), '/var/lib/fleet/initial-admin-password');
    const first = renderLogin();
    expect(await screen.findByText('/var/lib/fleet/initial-admin-password')).toBeTruthy();
    expect(screen.getByText('First start')).toBeTruthy();
    first.unmount();

    api(() => json(200, TOKENS), null);
    renderLogin();
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.some(([u]) => String(u) === '/api/auth/first-run')).toBe(true));
    expect(screen.queryByText('First start')).toBeNull();
  });
});
