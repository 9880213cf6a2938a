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

/** Only a next path inside the console is followed (never another origin). */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const signedIn = useSignedIn();
  const location = useLocation();
  if (!signedIn) return <Navigate to={loginPathFor(location)} replace />;
  return children;
}
