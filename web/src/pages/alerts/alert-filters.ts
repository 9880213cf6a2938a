/**
 * The history's filters as URL search parameters (so a filtered view survives a reload and can be
 * pasted to a colleague), and the API query they stand for. Anything malformed in a URL is
 * dropped rather than sent: the page never asks the service for a 422 it could have avoided.
 */
import type { HistoryQuery } from '../../api/resources/alerts';

export const ALERT_TYPES = ['cpu', 'mem', 'disk', 'offline', 'time_drift'] as const;
export const PAGE_SIZE = 50;

export interface AlertFilterState {
  type: string;
  server: number | null;
  status: '' | 'active' | 'recovered';
  from: string;
  to: string;
  page: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function validDay(v: string | null): string {
  if (!v || !DAY.test(v)) return '';
  const d = new Date(`${v}T00:00:00Z`);
  return Number.isFinite(d.getTime()) && d.toISOString().slice(0, 10) === v ? v : '';
}

export function readFilters(p: URLSearchParams): AlertFilterState {
  const type = p.get('type') ?? '';
  const server = Number(p.get('server'));
  const status = p.get('status');
  return {
    type: /^[a-z_]{1,32}$/.test(type) ? type : '',
    server: Number.isInteger(server) && server > 0 ? server : null,
    status: status === 'active' || status === 'recovered' ? status : '',
    from: validDay(p.get('from')),
    to: validDay(p.get('to')),
    page: Math.max(1, Math.floor(Number(p.get('page')) || 1)),
  };
}

/** Writes the changed fields; any change of a filter returns to page 1. */
export function writeFilters(p: URLSearchParams, next: Partial<AlertFilterState>): URLSearchParams {
  const out = new URLSearchParams(p);
  const set = (k: string, v: string | number | null | undefined) => {
    if (v === undefined) return;
    if (v === null || v === '') out.delete(k);
    else out.set(k, String(v));
  };
  set('type', next.type);
  set('server', next.server);
  set('status', next.status);
  set('from', next.from);
  set('to', next.to);
  const page = next.page ?? 1;
  set('page', page > 1 ? page : null);
  return out;
}

/** The API's filters (shared by the list and the CSV export). */
export function toQuery(f: AlertFilterState): Pick<HistoryQuery, 'type' | 'server_id' | 'status' | 'date_from' | 'date_to'> {
  const q: Pick<HistoryQuery, 'type' | 'server_id' | 'status' | 'date_from' | 'date_to'> = {};
  if (f.type) q.type = f.type;
  if (f.server !== null) q.server_id = f.server;
  if (f.status) q.status = f.status;
  if (f.from) q.date_from = f.from;
  if (f.to) q.date_to = f.to;
  return q;
}

export function hasFilters(f: AlertFilterState): boolean {
  return Boolean(f.type || f.server !== null || f.status || f.from || f.to);
}

/** A reading as the operator reads it: percent for cpu/mem/disk, seconds for drift, none for offline. */
export function alertValue(type: string, value: number | null, t: (k: string, o?: Record<string, unknown>) => string, lang: string): string {
  if (value === null || !Number.isFinite(value)) return '—';
  if (type === 'time_drift') return t('alerts.seconds', { value: new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(value) });
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(value / 100);
}
