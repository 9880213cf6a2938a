/**
 * Schedules: the calls and the react-query factories of `/api/schedules` (first key element
 * `schedules`, so invalidating it refreshes every view of schedules). The saved scripts a script
 * schedule may name are read here too, under the `scripts` key. Types come from the typed route map.
 */
import { queryOptions } from '@tanstack/react-query';
import { type Body, call, type Reply } from '../typed';

export type ScheduleView = Reply<'GET /api/schedules'>[number];
export type ScheduleRunsPage = Reply<'GET /api/schedules/{id}/runs'>;
export type ScheduleRunView = ScheduleRunsPage['items'][number];
export type CreateScheduleBody = Body<'POST /api/schedules'>;
export type UpdateScheduleBody = Body<'PUT /api/schedules/{id}'>;

export const RUNS_PER_PAGE = 20;

export const scheduleQueries = {
  all: ['schedules'] as const,
  list: () => queryOptions({ queryKey: ['schedules', 'list'] as const, queryFn: () => call('GET /api/schedules') }),
  runs: (id: number, page: number) =>
    queryOptions({
      queryKey: ['schedules', 'runs', id, page] as const,
      queryFn: () => call('GET /api/schedules/{id}/runs', { params: { id }, query: { page, per_page: RUNS_PER_PAGE } }),
    }),
  scripts: () => queryOptions({ queryKey: ['scripts', 'list'] as const, queryFn: () => call('GET /api/scripts') }),
};

export const schedulesApi = {
  create: (body: CreateScheduleBody, idempotencyKey?: string) => call('POST /api/schedules', { body, idempotencyKey }),
  update: (id: number, body: UpdateScheduleBody) => call('PUT /api/schedules/{id}', { params: { id }, body }),
  remove: (id: number) => call('DELETE /api/schedules/{id}', { params: { id } }),
};
