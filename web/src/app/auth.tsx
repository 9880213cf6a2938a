/** Whether this browser holds a login, kept in step with the other tabs. */
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { onSessionChange, readSession } from '../api/session';

export function useSignedIn(): boolean {
  const [signedIn, setSignedIn] = useState(() => readSession() !== null);
  useEffect(() => onSessionChange((s) => setSignedIn(s !== null)), []);
  return signedIn;
}

/** Where the login page sends the user back to. */
export function loginPathFor(location: { pathname: string; search: string }, reason?: 'expired'): string {
  const next = `${location.pathname}${location.search}`;
  const params = new URLSearchParams();
  if (next !== '/' && !next.startsWith('/login')) params.set('next', next);
  if (reason) params.set('reason', reason);
  const qs = params.toString();
  return qs ? `/login?${qs}` : '/login';
}

/** Decoding rounds tried on `next`: enough for any double or triple encoding a link could carry. */
const MAX_DECODES = 4;

/** `s` with every percent-encoding layer removed; null when malformed or nested too deep. */
function fullyDecoded(s: string): string | null {
  let decoded = s;
  for (let i = 0; i <= MAX_DECODES; i++) {
    let once: string;
    try {
      once = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (once === decoded) return decoded;
    decoded = once;
  }
  return null;
}

/**
 * Where the login page goes after signing in: `next` when it is a path of this console, else `/`.
 * A path starts with one `/`; browsers read a backslash as a slash (`/\host` is `//host`, another
 * origin) and drop tabs and newlines, so the decoded form (any encoding depth) may hold none of
 * them, nor start with `//`; it is then resolved against a fixed origin and must stay on it.
 * The login page itself is no destination (a signed-in visit there would send it back to itself).
 */
export function safeNext(next: string | null): string {
  if (!next?.startsWith('/') || next.length > 2048) return '/';
  const decoded = fullyDecoded(next);
  if (decoded === null) return '/';
  if (decoded.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(decoded)) return '/';
  const base = 'http://console.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return '/';
  }
  if (url.origin !== base || url.pathname === '/login' || url.pathname.startsWith('/login/')) return '/';
  return next;
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const signedIn = useSignedIn();
  const location = useLocation();
  if (!signedIn) return <Navigate to={loginPathFor(location)} replace />;
  return children;
}
