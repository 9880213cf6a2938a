/**
 * The one HTTP client of the console. It adds the access token, refreshes it shortly before it
 * expires (or once after a 401), and when the login cannot be refreshed it clears the session and
 * hands over to `onSignedOut` (the app returns to the login page and, afterwards, here).
 */
import type { TokenPair } from '@server/modules/auth/auth.schemas';
import { ApiError, apiErrorFrom, NetworkError } from './errors';
import { readSession, saveSession, sessionFrom, withRefreshLock, type Session } from './session';

/** Refresh when the access token has less than this left. */
const REFRESH_MARGIN_MS = 60_000;

let signedOutHandler: (() => void) | null = null;

/** What the app does when the login is gone for good (refresh refused). */
export function onSignedOut(fn: () => void): void {
  signedOutHandler = fn;
}

function signedOut(): void {
  saveSession(null);
  signedOutHandler?.();
}

let inflight: Promise<Session | null> | null = null;

/**
 * A fresh access token, once at a time in this tab and across tabs: whoever holds the lock
 * refreshes; a tab that waited finds the new tokens in storage and uses them instead of
 * presenting the old refresh token (which would revoke the login).
 */
export function refreshSession(stale: Session): Promise<Session | null> {
  inflight ??= withRefreshLock(async () => {
    const current = readSession();
    if (!current) return null;
    if (current.refresh !== stale.refresh) return current;
    let res: Response;
    try {
      res = await fetch('/api/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: current.refresh }),
      });
    } catch {
      return current; // offline: keep the session, the next request tries again
    }
    if (!res.ok) {
      if (res.status === 401 || res.status === 403) {
        signedOut();
        return null;
      }
      // The service is in trouble (a 5xx while it restarts): that is no sign-out; the access
      // token may still be good, and a later request tries the refresh again.
      return current;
    }
    const next = sessionFrom((await res.json()) as TokenPair);
    saveSession(next);
    return next;
  }).finally(() => {
    inflight = null;
  });
  return inflight;
}

/** The current session with an access token that is not about to expire, or null. */
export async function liveSession(): Promise<Session | null> {
  const s = readSession();
  if (!s) return null;
  if (s.accessExpiresAt - Date.now() > REFRESH_MARGIN_MS) return s;
  return refreshSession(s);
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  signal?: AbortSignal;
  /** Public endpoints (login, wallpapers) send no token. */
  anonymous?: boolean;
  /** Sent as `Idempotency-Key`: the service answers a repeat with the first answer (see start-work.ts). */
  idempotencyKey?: string;
}

function urlOf(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function send(method: string, path: string, o: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
  try {
    return await fetch(urlOf(path, o.query), {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
      signal: o.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new NetworkError();
  }
}

export async function request<T>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
  let session = o.anonymous ? null : await liveSession();
  if (!o.anonymous && !session) {
    signedOut();
    throw new ApiError(401, 'Not signed in');
  }
  let res = await send(method, path, o, session?.access ?? null);
  if (res.status === 401 && session) {
    // The token may have been revoked or expired early (a password change elsewhere): once more.
    const next = await refreshSession(session);
    // Refused (the login is gone, already signed out) or not refreshed this time (offline, a
    // 5xx): retrying with the same token would only fail again.
    if (!next || next.access === session.access) throw await apiErrorFrom(res);
    session = next;
    res = await send(method, path, o, session.access);
    if (res.status === 401) signedOut();
  }
  if (!res.ok) throw await apiErrorFrom(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/**
 * A POST whose answer is this tab's next token pair (sign out the other sessions). The service
 * revokes this tab's tokens too, and closes its socket, before the answer arrives; the call holds
 * the refresh lock so that a socket or request meeting a 401 meanwhile waits and then finds the
 * new pair, instead of presenting the revoked refresh token and signing this tab out. The token
 * is made fresh before the lock is taken, and a 401 here is not refreshed: a refresh inside the
 * lock would wait for itself.
 */
export async function replaceSession(path: string): Promise<void> {
  const session = await liveSession();
  if (!session) {
    signedOut();
    throw new ApiError(401, 'Not signed in');
  }
  await withRefreshLock(async () => {
    const res = await send('POST', path, {}, session.access);
    if (!res.ok) throw await apiErrorFrom(res);
    saveSession(sessionFrom((await res.json()) as TokenPair));
  });
}

export const api = {
  get: <T>(path: string, o?: RequestOptions) => request<T>('GET', path, o),
  post: <T>(path: string, body?: unknown, o?: RequestOptions) => request<T>('POST', path, { ...o, body }),
  put: <T>(path: string, body?: unknown, o?: RequestOptions) => request<T>('PUT', path, { ...o, body }),
  del: <T = void>(path: string, o?: RequestOptions) => request<T>('DELETE', path, o),
};

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * A multipart upload with real progress (XMLHttpRequest reports bytes sent; fetch cannot).
 * Resolves with the JSON answer; rejects with ApiError or NetworkError like `request`.
 */
export async function upload<T>(path: string, form: FormData, onProgress: (p: UploadProgress) => void, signal?: AbortSignal): Promise<T> {
  const session = await liveSession();
  if (!session) {
    signedOut();
    throw new ApiError(401, 'Not signed in');
  }
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('authorization', `Bearer ${session.access}`);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onerror = () => reject(new NetworkError());
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    xhr.onload = () => {
      const body = (xhr.response ?? {}) as { detail?: string; code?: string; errors?: [] };
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else {
        if (xhr.status === 401) signedOut();
        reject(new ApiError(xhr.status, body.detail ?? `HTTP ${xhr.status}`, body.errors ?? [], null, body.code ?? null));
      }
    };
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
