/**
 * The active-alert set under stress: a cache that loses its keys, a second worker starting on the
 * same database and cache, concurrent heartbeats on two workers, and a jump of the service clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { backends, heartbeat, history, monitoredServer, putSetting } from '../agent/agent-helpers.js';
import { offlineEnv } from '../../platform/settings/fake-http.js';
import { ACTIVE_SET } from '../../../src/modules/alerts/active-alerts.store.js';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0).reverse()) await a.close();
});

async function app(opts: Parameters<typeof makeTestApp>[0]): Promise<TestApp> {
  const t = await makeTestApp(opts);
  apps.push(t);
  return t;
}

const stats = async (t: TestApp) => (await t.app.inject({ url: '/api/alert-history/stats', headers: await t.auth() })).json();
const countRows = async (t: TestApp, id: number, q = '') => (await history(t, `server_id=${id}${q}`)).total;

describe.each(backends())('active alerts on %s + %s cache', (db, cache) => {
  it('a cache that lost its keys is rebuilt from the log: no alert lost, none duplicated', async () => {
    let clock = Date.parse('2026-11-20T04:00:00.000Z');
    const a = await app({ db, cache, env: offlineEnv(), now: () => clock });
    const s = await monitoredServer(a, 'survivor');
    await heartbeat(a, s.token, { cpu: 99, disk: 95 });
    await heartbeat(a, s.token, { cpu: 99, disk: 10 });
    expect((await stats(a)).active).toBe(1);

    await a.app.services.cache.del(ACTIVE_SET);
    expect((await stats(a)).active).toBe(0);
    expect(await a.app.services.alerts.engine.rebuild()).toEqual({ added: 1, removed: 0 });
    expect((await stats(a)).active).toBe(1);
    await heartbeat(a, s.token, { cpu: 99 });
    expect(await countRows(a, s.id, '&type=cpu')).toBe(1);

    // A stale member (say, left over from before a restore) is dropped by the rebuild.
    await a.app.services.cache.sadd(ACTIVE_SET, `${s.id}:disk`);
    expect(await a.app.services.alerts.engine.rebuild()).toEqual({ added: 0, removed: 1 });

    // A second worker / a restarted process starts on the same database (and cache, if shared).
    clock += 1_000;
    const b = await app({ shareWith: a, now: () => clock });
    expect((await stats(b)).active).toBe(1);
    await heartbeat(b, s.token, { cpu: 99 });
    expect(await countRows(b, s.id, '&type=cpu')).toBe(1);
    await heartbeat(b, s.token, { cpu: 5 });
    expect((await history(b, `server_id=${s.id}&type=cpu`)).items.map((i) => i.is_recovery)).toEqual([true, false]);
    expect((await stats(b)).active).toBe(0);
  });

  it('a breach still going on when the cache comes back empty is not opened (or notified) again, and still recovers', async () => {
    const a = await app({ db, cache, env: offlineEnv() });
    const s = await monitoredServer(a, 'restarted-under');
    await heartbeat(a, s.token, { cpu: 99 });
    // A Redis restart without persistence, before any rebuild: the next reading meets an empty set.
    await a.app.services.cache.del(ACTIVE_SET);
    await heartbeat(a, s.token, { cpu: 99 });
    await heartbeat(a, s.token, { cpu: 99 });
    expect(await countRows(a, s.id, '&type=cpu')).toBe(1);
    expect((await stats(a)).active).toBe(1);
    await heartbeat(a, s.token, { cpu: 5 });
    expect((await history(a, `server_id=${s.id}&type=cpu`)).items.map((i) => i.is_recovery)).toEqual([true, false]);
  });

  it('alerts of a deleted server leave the live set (they could never recover)', async () => {
    const a = await app({ db, cache, env: offlineEnv() });
    const kept = await monitoredServer(a, 'kept');
    const gone = await monitoredServer(a, 'gone');
    await heartbeat(a, kept.token, { cpu: 99 });
    await heartbeat(a, gone.token, { cpu: 99, mem: 99 });
    expect((await stats(a)).active).toBe(3);
    expect((await a.app.inject({ method: 'DELETE', url: `/api/servers/${gone.id}`, headers: await a.auth() })).statusCode).toBe(204);
    await a.app.services.alerts.offline.checkOffline(a.app.services.alerts.now());
    expect((await stats(a)).active).toBe(1);
    expect(await a.app.services.alerts.engine.rebuild()).toEqual({ added: 0, removed: 0 });
    // History keeps them, under the name they had.
    expect((await history(a, `server_id=${gone.id}`)).items.map((i) => i.server_name)).toEqual(['gone', 'gone']);
  });

  it('concurrent heartbeats open exactly one alert and write exactly one recovery', async () => {
    const a = await app({ db, cache, env: offlineEnv() });
    // With a shared cache the second app is a second worker; otherwise both calls go to one app.
    const b = cache === 'redis' ? await app({ shareWith: a }) : a;
    const s = await monitoredServer(a, 'racy');
    const burst = (r: { cpu: number }) =>
      Promise.all(Array.from({ length: 12 }, (_, i) => heartbeat(i % 2 ? a : b, s.token, r)));
    expect((await burst({ cpu: 99 })).every((r) => r.statusCode === 200)).toBe(true);
    expect(await countRows(a, s.id, '&type=cpu&is_recovery=false')).toBe(1);
    expect((await burst({ cpu: 1 })).every((r) => r.statusCode === 200)).toBe(true);
    expect(await countRows(a, s.id, '&type=cpu&is_recovery=true')).toBe(1);
    expect((await stats(a)).active).toBe(0);
  });

  it('a jump of the service clock opens no flood of offline alerts', async () => {
    let clock = Date.parse('2026-11-20T04:00:00.000Z');
    const a = await app({ db, cache, env: offlineEnv(), now: () => clock });
    await putSetting(a, 'heartbeat_timeout', '60');
    const servers = [];
    for (let i = 0; i < 5; i++) servers.push(await monitoredServer(a, `fleet-${i}`));
    for (const s of servers) await heartbeat(a, s.token);
    const detector = a.app.services.alerts.offline;
    let mono = 0;
    expect(await detector.tick(clock, mono)).toBe('checked');

    // The host clock is set an hour ahead between two ticks 10 s apart.
    clock += 3_600_000;
    mono += 10_000;
    expect(await detector.tick(clock, mono)).toBe('clock_jump');
    clock += 10_000;
    mono += 10_000;
    expect(await detector.tick(clock, mono)).toBe('checked');
    expect((await history(a, 'type=offline')).total).toBe(0);

    // Agents that keep reporting after the jump never go offline...
    for (const s of servers.slice(0, 3)) await heartbeat(a, s.token);
    clock += 40_000;
    mono += 40_000;
    expect(await detector.tick(clock, mono)).toBe('checked');
    expect((await history(a, 'type=offline')).total).toBe(0);
    // ...the ones that really went silent do, one full timeout after the jump.
    clock += 15_000;
    mono += 15_000;
    expect(await detector.tick(clock, mono)).toBe('checked');
    const offline = (await history(a, 'type=offline')).items.map((i) => i.server_id).sort();
    expect(offline).toEqual(servers.slice(3).map((s) => s.id).sort());
  });

  it('right after start no server is declared offline before a full timeout has passed', async () => {
    let clock = Date.parse('2026-11-20T04:00:00.000Z');
    const a = await app({ db, cache, env: offlineEnv(), now: () => clock });
    const s = await monitoredServer(a, 'old-news');
    await heartbeat(a, s.token);
    await a.app.services.agent.agent.flushHeartbeats();
    // The service was down for an hour: a new process starts with an old heartbeat on record.
    clock += 3_600_000;
    const b = await app({ shareWith: a, now: () => clock });
    expect(await b.app.services.alerts.offline.checkOffline(clock + 30_000)).toEqual([]);
    expect(await b.app.services.alerts.offline.checkOffline(clock + 91_000)).toEqual([s.id]);
  });
});
