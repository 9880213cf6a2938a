/**
 * The live socket (`/ws/alerts`): one connection per tab, reconnecting with backoff and jitter,
 * a status for the header's dot, and typed messages for whoever subscribes. The token travels
 * in the query string (browsers cannot set headers on a WebSocket); when the server closes with
 * 4401 (token expired or revoked) the session is refreshed first, then the socket reconnects.
 */
import type { AlertEvent, LiveEvent, ScriptEvent } from '@server/platform/events/live-events.schemas';
import { liveSession, refreshSession } from './client';
import { onSessionChange, readSession } from './session';

// The service's own schema of socket messages (one definition for both sides).
export type AlertMessage = AlertEvent;
export type ScriptMessage = ScriptEvent;
export type LiveMessage = LiveEvent;
export type SocketStatus = 'connected' | 'reconnecting' | 'disconnected';

const UNAUTHORIZED = 4401;
const MAX_BACKOFF_MS = 30_000;

type MessageListener = (m: LiveMessage) => void;
type StatusListener = (s: SocketStatus) => void;

export class LiveSocket {
  private ws: WebSocket | null = null;
  private status: SocketStatus = 'disconnected';
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = true;
  private readonly messages = new Set<MessageListener>();
  private readonly statuses = new Set<StatusListener>();
  private unwatch: (() => void) | null = null;

  constructor(
    private readonly urlFor: (token: string) => string = defaultUrl,
    private readonly makeSocket: (url: string) => WebSocket = (url) => new WebSocket(url),
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    // A new login or a refresh in another tab: reconnect with the new token.
    let lastAccess = readSession()?.access ?? null;
    this.unwatch = onSessionChange((s) => {
      if (!s) return this.stop();
      if (s.access !== lastAccess) {
        lastAccess = s.access;
        this.reconnectNow();
      }
    });
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.unwatch?.();
    this.unwatch = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000, 'bye');
    this.setStatus('disconnected');
  }

  onMessage(l: MessageListener): () => void {
    this.messages.add(l);
    return () => this.messages.delete(l);
  }

  onStatus(l: StatusListener): () => void {
    this.statuses.add(l);
    l(this.status);
    return () => this.statuses.delete(l);
  }

  getStatus(): SocketStatus {
    return this.status;
  }

  private setStatus(s: SocketStatus): void {
    if (s === this.status) return;
    this.status = s;
    for (const l of this.statuses) l(s);
  }

  private reconnectNow(): void {
    if (this.stopped) return;
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000, 'new token');
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.attempt = 0;
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped || this.ws) return;
    const session = await liveSession();
    if (this.stopped || this.ws) return;
    if (!session) return this.stop();
    const ws = this.makeSocket(this.urlFor(session.access));
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.setStatus('connected');
    };
    ws.onmessage = (e) => {
      let m: LiveMessage;
      try {
        m = JSON.parse(String(e.data)) as LiveMessage;
      } catch {
        return;
      }
      for (const l of this.messages) l(m);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      this.setStatus('reconnecting');
      if (e.code === UNAUTHORIZED) {
        // The token expired or was revoked: refresh (which may sign out), then reconnect. Saving
        // the new token already reconnected (see start), so only connect if that has not happened;
        // a refresh that failed for now (offline, 5xx) waits its backoff instead of looping.
        void refreshSession(session).then((s) => {
          if (!s) return this.stop();
          if (s.access === session.access) return this.schedule();
          void this.connect();
        });
        return;
      }
      this.schedule();
    };
  }

  private schedule(): void {
    const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt++);
    const delay = base / 2 + Math.random() * (base / 2);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, delay);
  }
}

function defaultUrl(token: string): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/ws/alerts?token=${encodeURIComponent(token)}`;
}

/** The tab's one socket. */
export const liveSocket = new LiveSocket();
