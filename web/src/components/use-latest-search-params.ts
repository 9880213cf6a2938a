/**
 * The address's search params, and a writer that builds each change on the last params written,
 * not on the render's. A navigation completes after the route's loader, so between a write and the
 * render that shows it the page may render again (a query answering) with the old params; a second
 * quick change built on those would drop the first (a date filter typed right after another, a
 * debounced search after a row was opened). The params of a render replace the last written only
 * when the address really changed (a navigation of its own, Back, a link).
 */
import { useCallback, useRef } from 'react';
import { type NavigateOptions, useSearchParams } from 'react-router';

export type SearchParamsChange = (current: URLSearchParams) => URLSearchParams;

export function useLatestSearchParams(): [URLSearchParams, (change: SearchParamsChange, options?: NavigateOptions) => void] {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  const seen = useRef(params.toString());
  if (params.toString() !== seen.current) {
    seen.current = params.toString();
    latest.current = params;
  }
  const write = useCallback(
    (change: SearchParamsChange, options?: NavigateOptions) => {
      latest.current = change(new URLSearchParams(latest.current));
      setParams(latest.current, options);
    },
    [setParams],
  );
  return [params, write];
}
