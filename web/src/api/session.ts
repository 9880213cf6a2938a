/**
 * The login's tokens, kept in localStorage so every tab of the console shares one session.
 * Refresh tokens rotate and a reused one revokes the whole login, so a refresh happens once at a
 * time across tabs: under a Web Lock, and a tab that waited uses what the other tab obtained.
 */
import type { TokenPair } from '@server/modules/auth/auth.schemas';

const KEY = 'fleet.session';

export interface Session {
  access: string;
  refresh: string;
  /** When the access token expires (ms since the epoch). */
  accessExpiresAt: number;
}

type Listener = (s: Session | null) => void;
const listeners = new Set<Listener>();

export function readSession(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Session;
    return typeof s.access === 'string' && typeof s.refresh === 'string' ? s : null;
  } catch {
    return null;
  }
}

export function sessionFrom(pair: TokenPair, now = Date.now()): Session {
  return { access: pair.access_token, refresh: pair.refresh_token, accessExpiresAt: now + pair.expires_in * 1000 };
}

export function saveSession(s: Session | null): void {
  if (s) localStorage.setItem(KEY, JSON.stringify(s));
  else localStorage.removeItem(KEY);
  for (const l of listeners) l(s);
}

/** Called on every change, also when another tab logs in, refreshes or logs out. */
export function onSessionChange(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === KEY || e.key === null) for (const l of listeners) l(readSession());
  });
}

let tabQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs `fn` while holding the cross-tab refresh lock; where Web Locks are missing (an old
 * browser), one at a time in this tab at least.
 */
export async function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
  if (locks) return locks.request('fleet.refresh', fn) as Promise<T>;
  const run = tabQueue.then(fn, fn);
  tabQueue = run.catch(() => undefined);
  return run;
}
