/** The HTTP client: tokens on every request, refresh before expiry and after a 401, sign-out when refused. */
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { api, onSignedOut, refreshSession, replaceSession, request } from '../../src/api/client';
import { ApiError, apiErrorFrom, NetworkError } from '../../src/api/errors';
import { readSession, saveSession } from '../../src/api/session';
import { json } from '../render';

type Call = { url: string; init: RequestInit };

/** A fetch that answers by path, recording every call. */
function stubFetch(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init });
    return answer(url, init);
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

const auth = (c: Call) => (c.init.headers as Record<string, string> | undefined)?.authorization;
const refreshes = (calls: Call[]) => calls.filter((c) => c.url === '/api/auth/refresh');
const pair = (n: number, expiresIn = 900) => ({ access_token: `A${n}`, refresh_token: `R${n}`, token_type: 'bearer', expires_in: expiresIn });

let signedOut: Mock<() => void>;

beforeEach(() => {
  signedOut = vi.fn<() => void>();
  onSignedOut(signedOut);
});

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
  localStorage.clear();
});

function signIn(accessExpiresInMs: number) {
  saveSession({ access: 'A1', refresh: 'R1', accessExpiresAt: Date.now() + accessExpiresInMs });
}

describe('api client', () => {
  it('sends the access token as a bearer header and returns the JSON answer', async () => {
    signIn(10 * 60_000);
    const calls = stubFetch(() => json(200, { ok: 1 }));
    await expect(api.get('/api/things', { query: { limit: 5, q: '' } })).resolves.toEqual({ ok: 1 });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('/api/things?limit=5');
    expect(auth(calls[0])).toBe('Bearer A1');
  });

  it('sends no token for an anonymous request', async () => {
    signIn(10 * 60_000);
    const calls = stubFetch(() => json(200, {}));
    await request('POST', '/api/auth/login', { body: { username: 'a' }, anonymous: true });
    expect(auth(calls[0])).toBeUndefined();
    expect(calls[0].init.body).toBe('{"username":"a"}');
  });

  it('refreshes a token close to expiry first, once for many parallel requests', async () => {
    signIn(20_000); // inside the one-minute margin
    let releaseRefresh: () => void = () => {};
    const refreshed = new Promise<void>((r) => {
      releaseRefresh = r;
    });
    const calls = stubFetch(async (url) => {
      if (url === '/api/auth/refresh') {
        await refreshed;
        return json(200, pair(2));
      }
      return json(200, { url });
    });
    const all = Promise.all([1, 2, 3, 4, 5].map((i) => api.get(`/api/r${i}`)));
    await vi.waitFor(() => expect(refreshes(calls)).toHaveLength(1));
    releaseRefresh();
    await expect(all).resolves.toHaveLength(5);

    expect(refreshes(calls)).toHaveLength(1);
    expect(JSON.parse(String(refreshes(calls)[0].init.body))).toEqual({ refresh_token: 'R1' });
    const others = calls.filter((c) => c.url !== '/api/auth/refresh');
    expect(others).toHaveLength(5);
    expect(others.map(auth)).toEqual(Array(5).fill('Bearer A2'));
    expect(readSession()).toMatchObject({ access: 'A2', refresh: 'R2' });
  });

  it('after a 401 refreshes once and retries the request with the new token', async () => {
    signIn(10 * 60_000);
    const calls = stubFetch((url, init) => {
      if (url === '/api/auth/refresh') return json(200, pair(2));
      return auth({ url, init }) === 'Bearer A2' ? json(200, { done: true }) : json(401, { detail: 'Token expired' });
    });
    await expect(api.post('/api/do', { x: 1 })).resolves.toEqual({ done: true });
    expect(calls.map((c) => [c.url, auth(c) ?? null])).toEqual([
      ['/api/do', 'Bearer A1'],
      ['/api/auth/refresh', null],
      ['/api/do', 'Bearer A2'],
    ]);
    expect(calls[2].init.body).toBe('{"x":1}');
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('clears the session and calls onSignedOut when the refresh is refused', async () => {
    signIn(10_000);
    const calls = stubFetch((url) => (url === '/api/auth/refresh' ? json(401, { detail: 'Refresh token revoked' }) : json(200, {})));
    const err = await api.get('/api/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect(readSession()).toBeNull();
    expect(signedOut).toHaveBeenCalled();
    // The request itself was never sent with a token known to be stale.
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/refresh']);
  });

  it('signs out when a 401 is followed by a refused refresh', async () => {
    signIn(10 * 60_000);
    stubFetch((url) => (url === '/api/auth/refresh' ? json(401, { detail: 'revoked' }) : json(401, { detail: 'Token revoked' })));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 401, detail: 'Token revoked' });
    expect(readSession()).toBeNull();
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('keeps the login when the refresh endpoint fails for another reason (a 503 while restarting)', async () => {
    signIn(20_000);
    const calls = stubFetch((url) => (url === '/api/auth/refresh' ? json(503, { detail: 'Service unavailable' }) : json(200, { ok: true })));
    // The access token is still valid for 20 s: the request goes out with it.
    await expect(api.get('/api/x')).resolves.toEqual({ ok: true });
    expect(auth(calls[calls.length - 1])).toBe('Bearer A1');
    expect(readSession()).toMatchObject({ access: 'A1' });
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('reports a 401 without signing out when the refresh after it fails for another reason', async () => {
    signIn(10 * 60_000);
    const calls = stubFetch((url) => (url === '/api/auth/refresh' ? json(502, { detail: 'Bad gateway' }) : json(401, { detail: 'Token expired' })));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 401, detail: 'Token expired' });
    // No second try with the same token, and the login stays for the next request.
    expect(calls.map((c) => c.url)).toEqual(['/api/x', '/api/auth/refresh']);
    expect(readSession()).toMatchObject({ access: 'A1' });
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('answers a request without a session with a 401 and the sign-out handler', async () => {
    const calls = stubFetch(() => json(200, {}));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(0);
    expect(signedOut).toHaveBeenCalled();
  });

  it('turns a failed fetch into a NetworkError', async () => {
    signIn(10 * 60_000);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(api.get('/api/x')).rejects.toBeInstanceOf(NetworkError);
  });

  it('returns undefined for a 204', async () => {
    signIn(10 * 60_000);
    stubFetch(() => new Response(null, { status: 204 }));
    await expect(api.del('/api/x/1')).resolves.toBeUndefined();
  });

  it('signs out the other sessions without signing out this tab, though a 401 meets it while the answer is on its way', async () => {
    signIn(10 * 60_000);
    let answer: (r: Response) => void = () => {};
    const calls = stubFetch((url) => {
      if (url === '/api/auth/sign-out-others') return new Promise<Response>((r) => (answer = r));
      return json(401, { detail: 'refresh token revoked' });
    });
    const replacing = replaceSession('/api/auth/sign-out-others');
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    // The service has already revoked this tab's tokens: its socket closes with 4401 and refreshes.
    const refreshed = refreshSession({ access: 'A1', refresh: 'R1', accessExpiresAt: Date.now() + 600_000 });
    answer(json(200, pair(2)));
    await replacing;
    expect((await refreshed)?.access).toBe('A2');
    expect(refreshes(calls)).toHaveLength(0);
    expect(readSession()?.refresh).toBe('R2');
    expect(signedOut).not.toHaveBeenCalled();
  });
});

describe('ApiError', () => {
  it('carries the status, detail and the field errors of a 422', async () => {
    signIn(10 * 60_000);
    stubFetch(() =>
      json(422, {
        detail: 'Validation failed: body.name must be longer',
        code: 'validation_failed',
        errors: [
          { path: 'body.name', message: 'must be longer' },
          { path: 'body.tags.0', message: 'must be a string' },
          { path: 'querystring.limit', message: 'must be an integer' },
          { bogus: true },
        ],
      }),
    );
    const err = (await api.post('/api/servers', {}).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(422);
    expect(err.detail).toBe('Validation failed: body.name must be longer');
    expect(err.message).toBe(err.detail);
    expect(err.errors).toHaveLength(3);
    expect(err.retryAfter).toBeNull();
    expect(err.code).toBe('validation_failed');
    // Only body fields name form fields.
    expect(err.fieldErrors()).toEqual({ name: 'must be longer', tags: 'must be a string' });
  });

  it('carries Retry-After in seconds', async () => {
    const err = await apiErrorFrom(json(429, { detail: 'Too many failed attempts; try again later' }, { 'retry-after': '42' }));
    expect(err).toMatchObject({ status: 429, detail: 'Too many failed attempts; try again later', retryAfter: 42 });
  });

  it('falls back to the status text when the answer is not JSON', async () => {
    const err = await apiErrorFrom(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect(err).toMatchObject({ status: 502, detail: 'Bad Gateway', errors: [], retryAfter: null });
  });
});
