import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { startSshd, type SshdInstance } from '../../fixtures/sshd.js';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { addServer, appFor, caller, recordEvents, type EventLog } from '../push/push-helpers.js';
import { offlineEnv, sendJson, startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';
import { eventually } from '../agent/agent-helpers.js';

const shared = inject('sshd');
let second: SshdInstance;
let bot: FakeServer;

beforeAll(async () => {
  [second, bot] = await Promise.all([startSshd(), startFakeServer((_req, res) => sendJson(res, 200, { ok: true, result: {} }))]);
});
afterAll(async () => {
  await Promise.all([second?.stop(), bot?.close()]);
});

describe.each(dbKinds())('scripts on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  let ev: EventLog;
  let a: number;
  let b: number;

  beforeAll(async () => {
    t = await appFor(db, offlineEnv({ MESSENGER_API_BASE: bot.url }));
    ev = recordEvents(t);
    a = await addServer(call, shared, 'web<1>&co');
    b = await addServer(call, second, 'db');
  });
  afterAll(async () => {
    ev?.stop();
    await t?.close();
  });
  beforeEach(() => {
    bot.requests.length = 0;
  });

  it('CRUD of stored scripts', async () => {
    const created = await call('POST', '/api/scripts', { name: 'hello', content: 'echo hello' });
    expect(created.statusCode).toBe(201);
    const s = created.json();
    expect(s).toEqual({ id: expect.any(Number), name: 'hello', content: 'echo hello', created_at: expect.any(String) });
    expect((await call('GET', '/api/scripts')).json()).toEqual(expect.arrayContaining([s]));
    expect((await call('GET', `/api/scripts/${s.id}`)).json()).toEqual(s);
    const upd = await call('PUT', `/api/scripts/${s.id}`, { content: 'echo "hi $1"' });
    expect(upd.json()).toMatchObject({ id: s.id, name: 'hello', content: 'echo "hi $1"' });
    expect((await call('POST', '/api/scripts', { name: '', content: 'x' })).statusCode).toBe(422);
    expect((await call('POST', '/api/scripts', { name: 'x' })).statusCode).toBe(422);
    expect((await call('PUT', '/api/scripts/999999', { name: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/scripts/${s.id}`)).statusCode).toBe(204);
    const gone = await call('DELETE', `/api/scripts/${s.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ detail: 'Script not found', code: 'script_not_found' });
    const actions = (await call('GET', '/api/audit')).json().items.map((i: { action: string }) => i.action);
    expect(actions).toEqual(expect.arrayContaining(['create_script', 'update_script', 'delete_script']));
  });

  it('runs a script on several servers: exit codes, both streams, an unknown server', async () => {
    const res = await call('POST', '/api/scripts/run', {
      server_ids: [a, b, 999_999],
      script_content: 'echo "out $(id -un)"\necho err >&2\n[ -n "$SSH_CONNECTION" ] && exit 3',
    });
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json();
    expect(out.run_id).toEqual(expect.any(String));
    expect(out.results).toHaveLength(3);
    for (const [i, id] of [a, b].entries()) {
      expect(out.results[i]).toMatchObject({ server_id: id, exit_code: 3, stdout: `out ${shared.username}\n`, stderr: 'err\n', error: null });
      // A real SSH round trip with a shell: more than nothing, less than the default 60 s timeout.
      expect(out.results[i].duration_ms).toBeGreaterThan(0);
      expect(out.results[i].duration_ms).toBeLessThan(60_000);
    }
    expect(out.results[2]).toMatchObject({ server_id: 999_999, server_name: null, exit_code: null, error: 'Server not found' });

    const done = await ev.next((e) => e.type === 'script_complete' && e.run_id === out.run_id);
    expect(done).toMatchObject({ total: 3, succeeded: 0, failed: 3 });
    const progress = ev.events.filter((e) => e.type === 'script_progress' && e.run_id === out.run_id);
    expect(progress.filter((e) => e.status === 'running')).toHaveLength(2);
    expect(progress.find((e) => e.server_id === a && e.status === 'finished')).toMatchObject({ exit_code: 3 });
    const audit = (await call('GET', '/api/audit?action=run_script')).json().items;
    expect(audit[0].detail).toContain(out.run_id);
  });

  it('keeps the last 64 KiB of output and enforces the timeout', async () => {
    const big = (
      await call('POST', '/api/scripts/run', { server_ids: [a], script_content: 'head -c 100000 /dev/zero | tr "\\0" x; echo END' })
    ).json().results[0];
    expect(big.exit_code).toBe(0);
    expect(big.stdout.length).toBe(64 * 1024);
    expect(big.stdout.endsWith('xEND\n')).toBe(true);

    const slow = (await call('POST', '/api/scripts/run', { server_ids: [b], script_content: 'echo started; sleep 5', timeout: 1 })).json();
    expect(slow.results[0]).toMatchObject({ exit_code: null, error: 'Timed out after 1 s' });
    expect(slow.results[0].duration_ms).toBeLessThan(4000);
  });

  it('a stored script by id; bad requests are refused', async () => {
    const s = (await call('POST', '/api/scripts', { name: 'uname', content: 'printf "%s" "$(uname -s)"' })).json();
    const r = (await call('POST', '/api/scripts/run', { server_ids: [a], script_id: s.id })).json();
    expect(r.results[0]).toMatchObject({ exit_code: 0, stdout: 'Linux' });

    const bad: Array<[Record<string, unknown>, number]> = [
      [{ server_ids: [a] }, 422],
      [{ server_ids: [a], script_id: s.id, script_content: 'true' }, 400],
      [{ server_ids: [a], script_id: 999_999 }, 404],
      [{ server_ids: [], script_content: 'true' }, 422],
      [{ server_ids: [a], script_content: 'true', timeout: 0 }, 422],
      [{ server_ids: [a], script_content: 'true', timeout: 3601 }, 422],
      [{ server_ids: [a], script_content: '   ' }, 400],
    ];
    for (const [body, status] of bad) {
      const res = await call('POST', '/api/scripts/run', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().detail).toEqual(expect.any(String));
    }
  });

  it('notifies script completion through the messenger bot, HTML-escaped, and honours notify_script_complete', async () => {
    expect((await call('PUT', '/api/settings/messenger_bot_token', { value: '123:abc' })).statusCode).toBe(200);
    expect((await call('PUT', '/api/settings/messenger_chat_id', { value: '-1001' })).statusCode).toBe(200);
    await call('POST', '/api/scripts/run', { server_ids: [a], script_content: 'echo "<script>&"' });
    // Queued in the outbox when the run ends, delivered by the delivery loop right after.
    await eventually(async () => bot.requests.length === 1);
    const body = JSON.parse(bot.requests[0].body);
    expect(body).toMatchObject({ chat_id: '-1001', parse_mode: 'HTML' });
    expect(body.text).toContain('web&lt;1&gt;&amp;co');
    expect(body.text).toContain('&lt;script&gt;&amp;');
    expect(body.text).not.toContain('<script>');

    expect((await call('PUT', '/api/settings/notify_script_complete', { value: 'false' })).statusCode).toBe(200);
    await call('POST', '/api/scripts/run', { server_ids: [a], script_content: 'true' });
    await new Promise((r) => setTimeout(r, 300));
    expect(bot.requests).toHaveLength(1);
  });
});
