/** The live socket: token in the URL, status changes, reconnecting with backoff, 4401 refreshes first. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveSocket, type SocketStatus } from '../../src/api/socket';
import { readSession, saveSession } from '../../src/api/session';
import { json } from '../render';

/** Stands in for the browser's WebSocket: the test opens, closes and messages it by hand. */
class FakeSocket {
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  closed: { code?: number; reason?: string } | null = null;
  constructor(readonly url: string) {}
  close(code?: number, reason?: string) {
    this.closed = { code, reason };
  }
  open() {
    this.onopen?.();
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
  send(m: unknown) {
    this.onmessage?.({ data: typeof m === 'string' ? m : JSON.stringify(m) });
  }
}

let sockets: FakeSocket[];
let live: LiveSocket;
let statuses: SocketStatus[];

function makeLive(urlFor?: (token: string) => string) {
  sockets = [];
  live = new LiveSocket(urlFor, (url) => {
    const s = new FakeSocket(url);
    sockets.push(s);
    return s as unknown as WebSocket;
  });
  statuses = [];
  live.onStatus((s) => statuses.push(s));
  return live;
}

const last = () => sockets[sockets.length - 1];

beforeEach(() => {
  vi.useFakeTimers();
  // The jitter at its top: each delay is the full backoff step.
  vi.spyOn(Math, 'random').mockReturnValue(0.999999);
  saveSession({ access: 'tok+1/=', refresh: 'R1', accessExpiresAt: Date.now() + 15 * 60_000 });
});

afterEach(() => {
  live?.stop();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  saveSession(null);
});

describe('LiveSocket', () => {
  it('puts the access token, encoded, in the /ws/alerts URL', async () => {
    makeLive().start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sockets).toHaveLength(1);
    expect(last().url).toBe(`ws://${location.host}/ws/alerts?token=tok%2B1%2F%3D`);
  });

  it('reports disconnected, connected, reconnecting, and connected again', async () => {
    makeLive((t) => `ws://test/${t}`).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(statuses).toEqual(['disconnected']);
    last().open();
    expect(live.getStatus()).toBe('connected');
    last().drop();
    expect(live.getStatus()).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(500);
    expect(sockets).toHaveLength(2);
    last().open();
    expect(statuses).toEqual(['disconnected', 'connected', 'reconnecting', 'connected']);
  });

  it('waits longer after each failed attempt, up to 30 s, and starts over once connected', async () => {
    makeLive((t) => `ws://test/${t}`).start();
    await vi.advanceTimersByTimeAsync(0);
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const before = sockets.length;
      last().drop();
      let waited = 0;
      while (sockets.length === before) {
        await vi.advanceTimersByTimeAsync(100);
        waited += 100;
        if (waited > 60_000) throw new Error('never reconnected');
      }
      delays.push(waited);
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);

    // A connection that opened resets the backoff.
    last().open();
    last().drop();
    await vi.advanceTimersByTimeAsync(400);
    expect(sockets).toHaveLength(9);
    await vi.advanceTimersByTimeAsync(100);
    expect(sockets).toHaveLength(10);
  });

  it('spreads reconnects with jitter between half and all of the step', async () => {
    vi.mocked(Math.random).mockReturnValue(0);
    makeLive((t) => `ws://test/${t}`).start();
    await vi.advanceTimersByTimeAsync(0);
    last().drop();
    await vi.advanceTimersByTimeAsync(249);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);
  });

  it('delivers parsed messages and ignores what is not JSON', async () => {
    makeLive((t) => `ws://test/${t}`).start();
    await vi.advanceTimersByTimeAsync(0);
    const got: unknown[] = [];
    const off = live.onMessage((m) => got.push(m));
    last().open();
    last().send('not json');
    last().send({ type: 'push_complete', batch_id: 'b1', seq: 3 });
    off();
    last().send({ type: 'alert', id: 1 });
    expect(got).toEqual([{ type: 'push_complete', batch_id: 'b1', seq: 3 }]);
  });

  it('stops: closes the socket, reports disconnected and never reconnects', async () => {
    makeLive((t) => `ws://test/${t}`).start();
    await vi.advanceTimersByTimeAsync(0);
    const first = last();
    first.open();
    live.stop();
    expect(first.closed).toEqual({ code: 1000, reason: 'bye' });
    expect(live.getStatus()).toBe('disconnected');
    first.drop(1000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('does not connect without a session', async () => {
    saveSession(null);
    makeLive((t) => `ws://test/${t}`).start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets).toHaveLength(0);
    expect(live.getStatus()).toBe('disconnected');
  });

  it('after a 4401 refreshes the token, then reconnects once with the new one', async () => {
    const fetch = vi.fn(async () => json(200, { access_token: 'A2', refresh_token: 'R2', token_type: 'bearer', expires_in: 900 }));
    vi.stubGlobal('fetch', fetch);
    makeLive((t) => `ws://test/${t}`).start();
    await vi.advanceTimersByTimeAsync(0);
    last().open();
    last().drop(4401);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(readSession()?.access).toBe('A2');
    expect(sockets.map((s) => s.url)).toEqual(['ws://test/tok+1/=', 'ws://test/A2']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(2);
  });

  it('after a 4401 whose refresh fails for now (503), backs off instead of reconnecting at once', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(503, { detail: 'unavailable' })));
    makeLive((t) => `ws://test/${t}`).start();
    await vi.advanceTimersByTimeAsync(0);
    last().open();
    last().drop(4401);
    await vi.advanceTimersByTimeAsync(100);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(400);
    expect(sockets).toHaveLength(2);
    expect(readSession()?.access).toBe('tok+1/=');
  });

  it('after a 4401 whose refresh is refused, stops and the session is gone', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(401, { detail: 'revoked' })));
    makeLive((t) => `ws://test/${t}`).start();
    await vi.advanceTimersByTimeAsync(0);
    last().open();
    last().drop(4401);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
    expect(readSession()).toBeNull();
    expect(live.getStatus()).toBe('disconnected');
  });

  it('reconnects at once with the new token when another tab signs in again', async () => {
    makeLive((t) => `ws://test/${t}`).start();
    await vi.advanceTimersByTimeAsync(0);
    const first = last();
    first.open();
    saveSession({ access: 'B1', refresh: 'RB', accessExpiresAt: Date.now() + 15 * 60_000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(first.closed?.code).toBe(1000);
    expect(last().url).toBe('ws://test/B1');
    // The old socket's late close does not schedule another connection.
    first.drop(1000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(2);
  });
});
