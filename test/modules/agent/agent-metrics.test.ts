/**
 * GET /api/agent/metrics: every server's newest reading (with load, clock drift and agent
 * version) and its recent readings, oldest first, from heartbeats posted through the real agent
 * endpoint; readings older than the retention window are pruned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsView } from '../../../src/modules/agent/agent.schemas.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { schemaSerializer } from '../../helpers/schema-serializer.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv } from '../../platform/settings/fake-http.js';
import { createServer, heartbeat, monitoredServer } from './agent-helpers.js';

const T0 = Date.parse('2026-03-10T04:00:00.000Z');

/** What the response schema's own serializer writes. */
const bySchema = schemaSerializer(MetricsView);

describe.each(dbKinds())('agent metrics on %s', (db) => {
  let t: TestApp;
  let clock = T0;

  beforeAll(async () => {
    t = await makeTestApp({ db, env: offlineEnv(), now: () => clock });
  });
  afterAll(async () => t?.close());

  const metrics = async (q = '') => t.app.inject({ url: `/api/agent/metrics${q}`, headers: await t.auth() });

  it('lists every server with its last reading, drift, version and recent points (oldest first)', async () => {
    const a = await monitoredServer(t, 'metrics-a');
    const silent = await createServer(t, 'metrics-silent');
    for (const [i, cpu] of [11, 22, 33].entries()) {
      clock = T0 + i * 30_000;
      // The agent's clock runs 5 s ahead on the last beat.
      const agentNow = i === 2 ? clock + 5_000 : clock;
      const res = await heartbeat(t, a.token, { cpu, mem: 40 + i, disk: 50, load: 0.5 + i, version: '1.1.0' } as never, agentNow);
      expect(res.statusCode).toBe(200);
    }
    const res = await metrics('?points=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.retention_s).toBe(3600);
    const item = body.items.find((s: { server_id: number }) => s.server_id === a.id);
    expect(item).toMatchObject({ name: 'metrics-a', host: '10.20.30.40', status: 'online' });
    expect(item.last).toEqual({ at: new Date(T0 + 60_000).toISOString(), cpu: 33, mem: 42, disk: 50, load: 2.5, drift_s: 5, version: '1.1.0' });
    expect(item.points.map((p: { cpu: number }) => p.cpu)).toEqual([22, 33]);
    const none = body.items.find((s: { server_id: number }) => s.server_id === silent);
    expect(none).toMatchObject({ name: 'metrics-silent', status: 'unknown', last: null, points: [] });
    // Ordered by name.
    const names = body.items.map((s: { name: string }) => s.name);
    expect(names).toEqual([...names].sort());
    expect((await metrics()).json().items.find((s: { server_id: number }) => s.server_id === a.id).points).toHaveLength(3);
  });

  it('keeps a heartbeat without a version (older agents) and refuses a malformed one', async () => {
    const b = await monitoredServer(t, 'metrics-b');
    // Half a second into a second: the agent's ts (whole seconds) is 0.5 s behind, which is no drift.
    clock = T0 + 90_500;
    expect((await heartbeat(t, b.token, { cpu: 1 })).statusCode).toBe(200);
    const item = (await metrics()).json().items.find((s: { server_id: number }) => s.server_id === b.id);
    expect(item.last).toMatchObject({ cpu: 1, version: null, load: null, drift_s: 0 });
    const bad = await heartbeat(t, b.token, { version: 'x y;rm' } as never);
    expect(bad.statusCode).toBe(422);
  });

  it('drops readings older than the retention window', async () => {
    const c = await monitoredServer(t, 'metrics-c');
    clock = T0 + 10 * 60_000;
    await heartbeat(t, c.token, { cpu: 70 });
    expect((await metrics()).json().items.find((s: { server_id: number }) => s.server_id === c.id).points).toHaveLength(1);
    clock = T0 + 3 * 3600_000;
    await heartbeat(t, c.token, { cpu: 80 });
    const item = (await metrics()).json().items.find((s: { server_id: number }) => s.server_id === c.id);
    expect(item.points.map((p: { cpu: number }) => p.cpu)).toEqual([80]);
  });

  it('answers the very bytes the response schema writes (the route serializes with JSON.stringify)', async () => {
    const d = await monitoredServer(t, 'metrics-d "quoted" \\ é \u2028');
    await createServer(t, 'metrics-d-silent');
    clock = T0 + 20 * 60_000;
    await heartbeat(t, d.token, { cpu: 12.5, mem: 0, disk: 99.75, load: 0 });
    await heartbeat(t, d.token, { cpu: 13 });
    const res = await metrics('?points=5');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const item = body.items.find((s: { server_id: number }) => s.server_id === d.id);
    expect(item.last).toMatchObject({ cpu: 13, load: null, version: null });
    expect(body.items.some((s: { last: unknown }) => s.last === null)).toBe(true);
    expect(res.body).toBe(bySchema(body));
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('answers 422 with a code for a bad points value and 401 without a login', async () => {
    for (const q of ['?points=0', '?points=121', '?points=abc']) {
      const res = await metrics(q);
      expect(res.statusCode, q).toBe(422);
      expect(res.json().code).toEqual(expect.any(String));
    }
    expect((await t.app.inject({ url: '/api/agent/metrics' })).statusCode).toBe(401);
  });
});
