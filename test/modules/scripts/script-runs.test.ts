/**
 * Stored script runs: the async start, the run history (status and time filters, paging), one
 * run's detail, and its numbered messages replayed after any point (what a reloaded page asks),
 * on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { addServer, appFor, caller, recordEvents, type EventLog } from '../push/push-helpers.js';

const shared = inject('sshd');

describe.each(dbKinds())('script runs on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  let ev: EventLog;
  let a: number;
  let b: number;

  beforeAll(async () => {
    t = await appFor(db);
    ev = recordEvents(t);
    a = await addServer(call, shared, 'run-a');
    b = await addServer(call, shared, 'run-b');
  });
  afterAll(async () => {
    ev?.stop();
    await t?.close();
  });

  it('async: answers 202 with the run id at once; output streams as numbered messages, replayable after any seq', async () => {
    const script = 'for i in 1 2 3; do echo "line $i"; sleep 0.3; done; echo oops >&2; exit 4';
    const started = Date.now();
    const res = await call('POST', '/api/scripts/run', { server_ids: [a, b], script_content: script, async: true });
    expect(res.statusCode, res.body).toBe(202);
    expect(Date.now() - started).toBeLessThan(800);
    const { run_id: runId, status } = res.json();
    expect(status).toBe('running');

    // While it runs, the run is listed as running and its detail has both servers.
    const during = (await call('GET', `/api/scripts/runs/${runId}`)).json();
    expect(during).toMatchObject({ run_id: runId, status: 'running', total: 2, operator: expect.any(String), label: 'inline script', server_ids: [a, b] });
    expect(during.servers.map((s: { server_id: number }) => s.server_id)).toEqual([a, b]);

    const done = await ev.next((e) => e.type === 'script_complete' && e.run_id === runId);
    expect(done).toMatchObject({ status: 'failed', total: 2, succeeded: 0, failed: 2 });

    const all = (await call('GET', `/api/scripts/runs/${runId}/events`)).json();
    expect(all.status).toBe('failed');
    expect(all.more).toBe(false);
    const seqs = all.events.map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual(seqs.map((_: number, i: number) => i + 1));
    expect(all.last_seq).toBe(seqs.length);
    // The stored messages are exactly the live ones.
    const live = ev.events.filter((e) => 'run_id' in e && e.run_id === runId);
    expect(live.map((e) => e.seq)).toEqual(seqs);
    expect(all.events[0]).toMatchObject({ type: 'script_started', total: 2, servers: [{ server_id: a }, { server_id: b }] });
    expect(all.events.at(-1)).toMatchObject({ type: 'script_complete' });
    for (const id of [a, b]) {
      const out = all.events.filter((e: { type: string; server_id?: number }) => e.type === 'script_output' && e.server_id === id);
      // Lines printed 0.3 s apart arrive as separate chunks, in order.
      expect(out.length).toBeGreaterThanOrEqual(3);
      const text = (s: string) => out.filter((e: { stream: string }) => e.stream === s).map((e: { data: string }) => e.data).join('');
      expect(text('stdout')).toBe('line 1\nline 2\nline 3\n');
      expect(text('stderr')).toBe('oops\n');
      const end = all.events.find((e: { type: string; server_id?: number; status?: string }) => e.type === 'script_progress' && e.server_id === id && e.status !== 'running');
      expect(end).toMatchObject({ status: 'finished', exit_code: 4, stdout: 'line 1\nline 2\nline 3\n', stderr: 'oops\n' });
    }

    // Resuming after seq k returns exactly the rest; paging with limit reports `more`.
    const k = 4;
    const rest = (await call('GET', `/api/scripts/runs/${runId}/events?after=${k}`)).json();
    expect(rest.events.map((e: { seq: number }) => e.seq)).toEqual(seqs.slice(k));
    const page = (await call('GET', `/api/scripts/runs/${runId}/events?after=0&limit=2`)).json();
    expect(page).toMatchObject({ last_seq: 2, more: true });
    const past = (await call('GET', `/api/scripts/runs/${runId}/events?after=${seqs.length}`)).json();
    expect(past).toMatchObject({ events: [], last_seq: seqs.length, more: false });

    const detail = (await call('GET', `/api/scripts/runs/${runId}`)).json();
    expect(detail).toMatchObject({ status: 'failed', succeeded: 0, failed: 2, finished_at: expect.any(String), duration_ms: expect.any(Number) });
    expect(detail.servers[0]).toMatchObject({ server_id: a, status: 'failed', exit_code: 4, error: null, stdout: 'line 1\nline 2\nline 3\n', stderr: 'oops\n' });

    const audit = (await call('GET', '/api/audit?action=run_script')).json().items;
    expect(audit.some((i: { detail: string }) => i.detail.includes(runId))).toBe(true);
  });

  it('the synchronous answer is stored as a run too; history filters by status and time and pages', async () => {
    const ok = (await call('POST', '/api/scripts/run', { server_ids: [a], script_content: 'echo fine' })).json();
    const mixed = (await call('POST', '/api/scripts/run', { server_ids: [a, 999_999], script_content: 'echo fine' })).json();
    expect((await call('GET', `/api/scripts/runs/${ok.run_id}`)).json()).toMatchObject({ status: 'success', succeeded: 1, failed: 0 });
    const m = (await call('GET', `/api/scripts/runs/${mixed.run_id}`)).json();
    expect(m).toMatchObject({ status: 'partial', succeeded: 1, failed: 1 });
    expect(m.servers[1]).toMatchObject({ server_id: 999_999, server_name: null, status: 'failed', error: 'Server not found' });

    const ids = (q: string) => call('GET', `/api/scripts/runs${q}`).then((r) => r.json().items.map((i: { run_id: string }) => i.run_id));
    const success = await ids('?status=success');
    expect(success).toContain(ok.run_id);
    expect(success).not.toContain(mixed.run_id);
    expect(await ids('?status=partial')).toEqual([mixed.run_id]);
    // Newest first.
    const first = (await call('GET', '/api/scripts/runs?limit=1')).json();
    expect(first).toMatchObject({ limit: 1, offset: 0, items: [{ run_id: mixed.run_id }] });
    expect(first.total).toBeGreaterThanOrEqual(3);
    expect((await call('GET', '/api/scripts/runs?limit=1&offset=1')).json().items[0].run_id).toBe(ok.run_id);
    // Time: a range in the past holds none of them; today's Shanghai day (a date) holds them all.
    expect(await ids('?to=2020-01-01')).toEqual([]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
    expect(await ids(`?from=${today}&to=${today}`)).toEqual(expect.arrayContaining([ok.run_id, mixed.run_id]));
    expect(await ids(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
  });

  it('bad input is a 4xx with a code', async () => {
    const cases: Array<[string, number, string]> = [
      ['/api/scripts/runs?status=done', 422, 'validation_failed'],
      ['/api/scripts/runs?from=yesterday', 422, 'validation_failed'],
      ['/api/scripts/runs?limit=0', 422, 'validation_failed'],
      ['/api/scripts/runs/00000000-0000-0000-0000-000000000000', 404, 'script_run_not_found'],
      ['/api/scripts/runs/00000000-0000-0000-0000-000000000000/events', 404, 'script_run_not_found'],
      ['/api/scripts/runs/bad%20id', 422, 'validation_failed'],
      ['/api/scripts/runs/x/events?after=-1', 422, 'validation_failed'],
    ];
    for (const [url, status, code] of cases) {
      const res = await call('GET', url);
      expect(res.statusCode, url).toBe(status);
      expect(res.json().code, url).toBe(code);
    }
    const res = await call('POST', '/api/scripts/run', { server_ids: [a], script_content: 'true', async: 'yes' });
    expect(res.statusCode).toBe(422);
  });
});
