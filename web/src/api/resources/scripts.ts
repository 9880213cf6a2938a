/**
 * Scripts: stored scripts, starting a run (in the background, with an idempotency key), the run
 * history and one run with its replayable messages. Query keys start with `scripts`, so
 * invalidating `scriptQueries.all` refreshes every view of scripts and runs.
 */
import { queryOptions } from '@tanstack/react-query';
import { call, type Body, type Query } from '../typed';

export type RunsFilter = Query<'GET /api/scripts/runs'>;

export const scriptQueries = {
  all: ['scripts'] as const,
  runsAll: ['scripts', 'runs'] as const,
  list: () => queryOptions({ queryKey: ['scripts', 'list'], queryFn: () => call('GET /api/scripts') }),
  runs: (query: RunsFilter) => queryOptions({ queryKey: ['scripts', 'runs', 'list', query], queryFn: () => call('GET /api/scripts/runs', { query }) }),
  run: (runId: string) => queryOptions({ queryKey: ['scripts', 'runs', 'one', runId], queryFn: () => call('GET /api/scripts/runs/{run_id}', { params: { run_id: runId } }) }),
};

export const scriptsApi = {
  create: (body: Body<'POST /api/scripts'>) => call('POST /api/scripts', { body }),
  update: (id: number, body: Body<'PUT /api/scripts/{id}'>) => call('PUT /api/scripts/{id}', { params: { id }, body }),
  remove: (id: number) => call('DELETE /api/scripts/{id}', { params: { id } }),
  /** Starts a run in the background; the answer is its id (follow it with `events`). */
  start: async (body: Omit<Body<'POST /api/scripts/run'>, 'async'>, idempotencyKey: string): Promise<string> => {
    const r = await call('POST /api/scripts/run', { body: { ...body, async: true }, idempotencyKey });
    return r.run_id;
  },
  run: (runId: string) => call('GET /api/scripts/runs/{run_id}', { params: { run_id: runId } }),
  events: (runId: string, after: number) => call('GET /api/scripts/runs/{run_id}/events', { params: { run_id: runId }, query: { after } }),
};
