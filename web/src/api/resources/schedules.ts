/**
 * Schedules: the calls and the react-query factories of `/api/schedules` (first key element
 * `schedules`, so invalidating it refreshes every view of schedules). The saved scripts a script
 * schedule may name are read here too, under the `scripts` key.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ScriptView } from '@server/modules/scripts/scripts.schemas';
import type {
  CreateScheduleBody, ScheduleRunsPage, ScheduleView, UpdateScheduleBody,
} from '@server/modules/schedules/schedules.schemas';
import { api } from '../client';

export type { ScheduleRunsPage, ScheduleView, CreateScheduleBody, UpdateScheduleBody };
export type ScheduleRunView = ScheduleRunsPage['items'][number];

export const RUNS_PER_PAGE = 20;

export const scheduleQueries = {
  all: ['schedules'] as const,
  list: () => queryOptions({ queryKey: ['schedules', 'list'], queryFn: () => api.get<ScheduleView[]>('/api/schedules') }),
  runs: (id: number, page: number) =>
    queryOptions({
      queryKey: ['schedules', 'runs', id, page],
      queryFn: () => api.get<ScheduleRunsPage>(`/api/schedules/${id}/runs`, { query: { page, per_page: RUNS_PER_PAGE } }),
    }),
  scripts: () => queryOptions({ queryKey: ['scripts', 'list'], queryFn: () => api.get<ScriptView[]>('/api/scripts') }),
};

export const schedulesApi = {
  create: (body: CreateScheduleBody, idempotencyKey?: string) => api.post<ScheduleView>('/api/schedules', body, { idempotencyKey }),
  update: (id: number, body: UpdateScheduleBody) => api.put<ScheduleView>(`/api/schedules/${id}`, body),
  remove: (id: number) => api.del(`/api/schedules/${id}`),
};
