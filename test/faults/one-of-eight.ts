/**
 * The shape both SSH fault tests share: a push of a big file to 8 servers, one of them the victim
 * (its own sshd, killed or stalled while its file is on the way), the 7 others on the suite's
 * sshd. What must hold afterwards is the same whatever the fault: the victim failed alone with a
 * retry job, the others hold every file (checked here and with sha256sum on each server), and the
 * retry completes once the victim is reachable again.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { SshdInfo } from '../fixtures/sshd.js';
import type { TestApp } from '../helpers/app.js';
import { addServer, bigSource, type Caller, digestTree, remoteDir, writingBig } from '../modules/push/push-helpers.js';

export interface EightServerPush {
  src: string;
  /** The victim's target directory first, then the 7 others'. */
  dirs: string[];
  ids: number[];
  batchId: string;
}

/** Starts the push and answers once the victim's file is being written; every path goes to `cleanup`. */
export async function startEightServerPush(
  call: Caller,
  victim: SshdInfo,
  shared: SshdInfo,
  label: string,
  cleanup: string[],
): Promise<EightServerPush> {
  const src = bigSource(96);
  const dirs = [remoteDir(victim, label)];
  const ids = [await addServer(call, victim, label, { target_path: dirs[0] })];
  for (let i = 0; i < 7; i++) {
    const dir = remoteDir(shared, `${label}-ok-${i}`);
    dirs.push(dir);
    ids.push(await addServer(call, shared, `${label}-ok-${i}`, { target_path: dir }));
  }
  cleanup.push(src, ...dirs);
  const batchId = `${label}_${randomUUID().slice(0, 8)}`;
  const res = await call('POST', '/api/sync/files', { server_ids: ids, source_path: src, async: true, batch_id: batchId, concurrency: 8 });
  expect(res.statusCode).toBe(202);
  expect(await writingBig([dirs[0]], 30_000)).toBe(true);
  return { src, dirs, ids, batchId };
}

/** The victim failed alone, with a retry job; the 7 others hold every file. Answers the retry job's id. */
export async function expectVictimFailedAlone(call: Caller, p: EightServerPush): Promise<number> {
  const b = (await call('GET', `/api/sync/batches/${p.batchId}`)).json();
  expect(b).toMatchObject({ status: 'partial', succeeded: 7, failed: 1 });
  const [vr, ...others] = b.results;
  expect(vr).toMatchObject({ server_id: p.ids[0], status: 'failed', retry_job_id: expect.any(Number) });
  expect(vr.error).toMatch(/rsync/);
  expect(others.map((r: { status: string }) => r.status)).toEqual(Array(7).fill('success'));
  for (const dir of p.dirs.slice(1)) expect(digestTree(dir)).toEqual(digestTree(p.src));

  // Checked remotely (sha256sum on each server): the 7 hold the files; the victim fails alone.
  const verify = (await call('POST', '/api/sync/verify', { source_path: p.src, server_ids: p.ids })).json();
  expect(verify.results[String(p.ids[0])]).toMatchObject({ error: expect.any(String) });
  for (const id of p.ids.slice(1)) expect(verify.results[String(id)]).toMatchObject({ matched: 2, missing: 0, mismatched: 0 });
  return vr.retry_job_id as number;
}

/** Run once the victim is reachable again: its retry job completes the push. */
export async function expectRetryCompletes(call: Caller, t: TestApp, p: EightServerPush, jobId: number): Promise<void> {
  const job = (await call('GET', '/api/retries')).json().find((j: { id: number }) => j.id === jobId);
  expect(job).toMatchObject({ server_id: p.ids[0], status: 'pending', target_path: p.dirs[0] });
  expect((await call('POST', `/api/retries/${job.id}/retry`)).statusCode).toBe(200);
  expect(await t.app.services.retries.runDueRetries()).toMatchObject({ ran: 1, succeeded: 1 });
  // The killed remote rsync could not remove its partial temp file; everything else matches.
  const pushed = Object.fromEntries(Object.entries(digestTree(p.dirs[0])).filter(([k]) => !k.startsWith('.big.bin.')));
  expect(pushed).toEqual(digestTree(p.src));
}
