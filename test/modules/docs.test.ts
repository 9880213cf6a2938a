/** Every route documents itself: the OpenAPI document lists each non-hidden route. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

describe('API docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t?.close());

  it('serves Swagger UI and an OpenAPI document with every API route', async () => {
    expect((await t.app.inject({ url: '/docs/' })).statusCode).toBe(200);
    const res = await t.app.inject({ url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/(.)\/$/, '$1')}`),
      ),
    );
    const routes = t.app.routeTable.filter(
      (r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && !r.websocket,
    );
    expect(routes.length).toBeGreaterThan(60);
    for (const r of routes) {
      // A prefix's '/' route is registered with and without the trailing slash; docs list it once.
      const openapiPath = r.url.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/(.)\/$/, '$1');
      expect(documented.has(`${r.method} ${openapiPath}`), `${r.method} ${r.url}`).toBe(true);
    }
  });

  it('documents the Idempotency-Key header and the one-writer-per-target rule on the routes that start work', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json() as {
      paths: Record<string, Record<string, { description?: string; parameters?: Array<{ in: string; name: string }> }>>;
    };
    for (const [p, m] of [['/api/sync/files', 'post'], ['/api/schedules/', 'post'], ['/api/retries/{id}/retry', 'post'], ['/api/scripts/run', 'post']] as const) {
      const op = doc.paths[p]?.[m] ?? doc.paths[p.replace(/\/$/, '')]?.[m];
      expect(op?.parameters?.some((x) => x.in === 'header' && x.name === 'idempotency-key'), p).toBe(true);
    }
    const push = doc.paths['/api/sync/files'].post.description ?? '';
    expect(push).toContain('Idempotency-Key');
    expect(push).toContain('target_busy');
    expect(push).toContain('`/srv` and `/srv/app` overlap');
  });
});
