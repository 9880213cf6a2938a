import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../src/api/session';
import { call, pathOf } from '../../src/api/typed';

describe('call()', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    saveSession(null);
  });

  it('fills each path parameter as one encoded segment', () => {
    expect(pathOf('/api/settings/{key}', { key: 'a/b c' })).toBe('/api/settings/a%2Fb%20c');
    expect(() => pathOf('/api/servers/{id}', {})).toThrow(/missing path parameter id/);
  });

  it('sends the method, path, query, body and idempotency key of the route key', async () => {
    saveSession({ access: 'tok', refresh: 'r', accessExpiresAt: Date.now() + 3_600_000 });
    const fetch = vi.fn(async () => new Response(JSON.stringify({ id: 7 }), { status: 200, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);
    const out = await call('PUT /api/servers/{id}', { params: { id: 7 }, body: { name: 'web-1' }, idempotencyKey: 'k1' });
    expect(out).toEqual({ id: 7 });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/servers/7');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({ name: 'web-1' });
    expect((init.headers as Record<string, string>)['idempotency-key']).toBe('k1');
    await call('GET /api/sync/batches/{batch_id}/events', { params: { batch_id: 'b 1' }, query: { after: 3, limit: 10 } });
    expect((fetch.mock.calls[1] as unknown as [string])[0]).toBe('/api/sync/batches/b%201/events?after=3&limit=10');
  });
});
