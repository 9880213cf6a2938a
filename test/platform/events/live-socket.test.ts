import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { cacheKinds } from '../../helpers/targets.js';
import { connectWs } from '../../helpers/ws.js';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0).reverse()) await a.close();
});

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as { port: number }).port;
}

describe.each(cacheKinds())('/ws/alerts on %s cache', (cache) => {
  it('delivers a published event to an authenticated socket', async () => {
    const a = await makeTestApp({ cache });
    apps.push(a);
    const port = await listen(a);
    const ws = connectWs(`ws://127.0.0.1:${port}/ws/alerts?token=${await a.token()}`);
    await ws.opened;
    // Publishing races the socket's subscription only on the server side; retry until seen.
    const seen = ws.next((m) => m.type === 'push_progress' && m.batch_id === 'b1');
    const pump = setInterval(() => void a.app.services.events.publish({ type: 'push_progress', batch_id: 'b1', seq: 1 }), 50);
    await expect(seen).resolves.toMatchObject({ type: 'push_progress', batch_id: 'b1' });
    clearInterval(pump);
    ws.close();
    expect(await connectWs(`ws://127.0.0.1:${port}/ws/alerts?token=garbage`).closed).toBe(4401);
  });
});

describe.runIf(process.env.TEST_CACHE_URL)('/ws/alerts across workers', () => {
  it('an event published by one worker reaches the sockets of another', async () => {
    const a = await makeTestApp({ cache: 'redis' });
    apps.push(a);
    const b = await makeTestApp({ shareWith: a });
    apps.push(b);
    const port = await listen(b);
    const ws = connectWs(`ws://127.0.0.1:${port}/ws/alerts?token=${await a.token()}`);
    await ws.opened;
    const seen = ws.next((m) => m.type === 'alert' && m.server_id === 42);
    const pump = setInterval(() => void a.app.services.events.publish({ type: 'alert', id: 1, server_id: 42, server_name: null, alert_type: 'cpu', value: 99 }), 50);
    await expect(seen).resolves.toMatchObject({ type: 'alert', server_id: 42 });
    clearInterval(pump);
    ws.close();
  });
});
