/**
 * A push batch that closes with a failed server notifies the channels subscribed to
 * `push_failed` (through the outbox, to a loopback webhook fake), naming the batch and the failed
 * server; a batch without failures notifies nobody, and `notify_push_failed` off silences it.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakeWebhook, type FakeProvider } from '../../helpers/fake-providers/index.js';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { addServer, appFor, caller, remoteDir, rmrf, stagingDir, until } from './push-helpers.js';

const shared = inject('sshd');

describe.each(dbKinds())('push_failed notification on %s', (db) => {
  let t: TestApp;
  let hook: FakeProvider;
  const call = caller(() => t);
  const cleanup: string[] = [];
  let src: string;
  let good: number;

  beforeAll(async () => {
    hook = await startFakeWebhook();
    t = await appFor(db);
    expect((await call('PUT', '/api/settings/notify_allow_private_targets', { value: 'true' })).statusCode).toBe(200);
    const created = await call('POST', '/api/notification-channels', { type: 'webhook', name: 'push watch', config: hook.config, events: ['push_failed'] });
    expect(created.statusCode, created.body).toBe(201);
    src = stagingDir({ 'a.txt': 'alpha\n' });
    const dir = remoteDir(shared, 'notice');
    good = await addServer(call, shared, 'notice-ok', { target_path: dir });
    cleanup.push(src, dir);
  });
  afterAll(async () => {
    await t?.close();
    await hook?.close();
    rmrf(...cleanup);
  });

  const push = (ids: number[]) => call('POST', '/api/sync/files', { source_path: src, server_ids: ids });
  const settle = async () => {
    await t.app.services.notifications.delivery.runOnce();
    await new Promise((r) => setTimeout(r, 300));
  };

  it('notifies once with the batch and the failed server, and not for a batch that succeeded', async () => {
    const ok = (await push([good])).json();
    expect(ok.status).toBe('completed');
    await settle();
    expect(hook.received).toHaveLength(0);

    const partial = (await push([good, 999_999])).json();
    expect(partial).toMatchObject({ status: 'partial', failed: 1 });
    await until(async () => hook.received.length > 0);
    await settle();
    expect(hook.received).toHaveLength(1);
    expect(hook.problems).toEqual([]);
    const body = hook.last().body;
    expect(body).toContain('#999999');
    expect(body).toMatch(/1\s*\/\s*2|1 of 2/);
  });

  it('stays silent when notify_push_failed is off', async () => {
    hook.reset();
    expect((await call('PUT', '/api/settings/notify_push_failed', { value: 'false' })).statusCode).toBe(200);
    try {
      expect((await push([999_998])).json().status).toBe('failed');
      await settle();
      expect(hook.received).toHaveLength(0);
    } finally {
      await call('PUT', '/api/settings/notify_push_failed', { value: 'true' });
    }
  });
});
