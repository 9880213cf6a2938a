/** A stubbed fetch for page tests: answers by "METHOD /path" and records every request. */
import { vi } from 'vitest';
import { saveSession } from '../../../src/api/session';
import { json } from '../../render';

export interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export function fakeApi(answer: (req: Sent) => Response | undefined) {
  const sent: Sent[] = [];
  saveSession({ access: 'A1', refresh: 'R1', accessExpiresAt: Date.now() + 3_600_000 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://console.test');
      const req: Sent = {
        method: init.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      };
      sent.push(req);
      return answer(req) ?? json(404, { detail: `Not found: ${req.method} ${req.path}` });
    }),
  );
  return sent;
}
