/** A tiny client for `/ws/alerts` in tests (Node 20 has no global WebSocket). */
import WebSocket from 'ws';

export interface WsClient {
  messages: Array<Record<string, unknown>>;
  closed: Promise<number>;
  opened: Promise<void>;
  /** Resolves with the first message matching `pred` (waits up to `ms`). */
  next(pred: (m: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  close(): void;
}

export function connectWs(url: string): WsClient {
  const ws = new WebSocket(url);
  const messages: Array<Record<string, unknown>> = [];
  const waiters: Array<{ pred: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }> = [];
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as Record<string, unknown>;
    messages.push(m);
    for (const w of [...waiters]) {
      if (w.pred(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const opened = new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  return {
    messages,
    closed,
    opened,
    next(pred, ms = 5000) {
      const hit = messages.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching socket message')), ms);
        waiters.push({
          pred,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    close: () => ws.close(),
  };
}
