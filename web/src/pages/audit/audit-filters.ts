/** The audit page's filters and page live in the URL, so a filtered view can be pasted to a colleague. */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { AuditFilters } from '../../api/resources/audit';

export const PAGE_SIZE = 50;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface AuditView {
  filters: AuditFilters;
  page: number;
}

/** Reads the view from URL parameters, dropping what is malformed (a bad date would only be a 422). */
export function viewFrom(params: URLSearchParams): AuditView {
  const date = (k: string) => {
    const v = params.get(k) ?? '';
    return DATE.test(v) ? v : undefined;
  };
  const filters: AuditFilters = {};
  const action = params.get('action')?.trim();
  const admin = params.get('admin')?.trim();
  if (action) filters.action = action;
  if (admin) filters.admin_username = admin;
  const from = date('from');
  const to = date('to');
  if (from) filters.date_from = from;
  if (to) filters.date_to = to;
  const page = Number(params.get('page'));
  return { filters, page: Number.isInteger(page) && page > 1 ? page : 1 };
}

export function paramsFrom(view: AuditView): URLSearchParams {
  const p = new URLSearchParams();
  if (view.filters.action) p.set('action', view.filters.action);
  if (view.filters.admin_username) p.set('admin', view.filters.admin_username);
  if (view.filters.date_from) p.set('from', view.filters.date_from);
  if (view.filters.date_to) p.set('to', view.filters.date_to);
  if (view.page > 1) p.set('page', String(view.page));
  return p;
}

export function useAuditView() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => viewFrom(params), [params]);
  /** A filter change starts again at page 1. */
  const setFilters = useCallback(
    (patch: Partial<AuditFilters>) => setParams(paramsFrom({ filters: { ...viewFrom(params).filters, ...patch }, page: 1 }), { replace: true }),
    [params, setParams],
  );
  const setPage = useCallback((page: number) => setParams(paramsFrom({ ...viewFrom(params), page })), [params, setParams]);
  const clear = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  return { view, search: params.toString(), setFilters, setPage, clear };
}
