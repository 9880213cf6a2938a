/**
 * A worker that missed a settings announcement (published while Redis was down, or while its own
 * pub/sub connection was) catches up from the database: when its pub/sub connection comes back,
 * and on the periodic re-read. Two RuntimeSettings on one database, each with its own in-process
 * cache, stand for two workers whose announcements never reach each other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../../src/adapters/cache/memory-cache.js';
import { RuntimeSettings } from '../../../src/platform/settings/runtime-settings.js';
import { SettingsRepository } from '../../../src/platform/settings/settings.repository.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { until } from '../../modules/push/push-helpers.js';
import { offlineEnv } from './fake-http.js';

/** An in-process cache that can pretend its pub/sub connection came back. */
class ReconnectingCache extends MemoryCache {
  private readonly listeners = new Set<() => void>();
  onReconnect(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  reconnected(): void {
    for (const l of this.listeners) l();
  }
}

describe.each(dbKinds())('settings catch-up on %s', (db) => {
  let t: TestApp;
  let writer: RuntimeSettings;
  let missed: RuntimeSettings;
  let cache: ReconnectingCache;
  const heard: Array<[string, string | null]> = [];

  beforeAll(async () => {
    t = await makeTestApp({ db, env: offlineEnv() });
    const repo = new SettingsRepository(t.app.services.db);
    writer = new RuntimeSettings(repo, new MemoryCache(), t.app.services.log);
    cache = new ReconnectingCache();
    missed = new RuntimeSettings(repo, cache, t.app.services.log);
    await Promise.all([writer.load(), missed.load()]);
    await Promise.all([writer.start(), missed.start()]);
    missed.onChange((k, v) => heard.push([k, v]));
  });
  afterAll(async () => {
    await Promise.all([writer?.stop(), missed?.stop()]);
    await t?.close();
  });

  it('a re-read applies changes and deletions it was never told of, and tells its listeners', async () => {
    await writer.set('cpu_alert_threshold', '61');
    await writer.set('system_name', 'gone soon');
    expect(missed.get('cpu_alert_threshold')).toBeNull();
    expect(await missed.resync()).toEqual(expect.arrayContaining(['cpu_alert_threshold', 'system_name']));
    expect(missed.getInt('cpu_alert_threshold', 90)).toBe(61);
    expect(heard).toContainEqual(['cpu_alert_threshold', '61']);

    await writer.delete('system_name');
    expect(await missed.resync()).toEqual(['system_name']);
    expect(missed.get('system_name')).toBeNull();
    expect(heard.at(-1)).toEqual(['system_name', null]);
    expect(await missed.resync()).toEqual([]);
  });

  it('when its pub/sub connection comes back, it re-reads at once', async () => {
    await writer.set('cpu_alert_threshold', '62');
    expect(missed.getInt('cpu_alert_threshold', 90)).toBe(61);
    cache.reconnected();
    await until(async () => missed.getInt('cpu_alert_threshold', 90) === 62, 5_000);
  });

  it('a value it wrote itself while the re-read was under way is not overwritten by the older read', async () => {
    await writer.set('disk_alert_threshold', '70');
    const reading = missed.resync();
    await missed.set('disk_alert_threshold', '71');
    await reading;
    expect(missed.get('disk_alert_threshold')).toBe('71');
  });
});
