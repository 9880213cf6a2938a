/**
 * The address's search params, and a writer that builds each change on the last params written,
 * not on the render's. A navigation completes after the route's loader, and its render comes
 * later still (the router renders in a transition, which React may drop and redo), so committed
 * renders lag behind the writes: one may show the old params, or those of an earlier write while
 * a later one is on its way. A quick change built on those would drop the ones before it (a date
 * filter typed right after another, a debounced search after a row was opened). So a committed
 * render's params replace the last written only when they are none of this page's own writes
 * still arriving: a navigation of its own (Back, a link) starts over from what the address says.
 */
import { useCallback, useLayoutEffect, useRef } from 'react';
import { type NavigateOptions, useSearchParams } from 'react-router';

export type SearchParamsChange = (current: URLSearchParams) => URLSearchParams;

/** The bookkeeping, apart from React so that any order of writes and renders can be tested. */
export class LatestParams {
  private latest: URLSearchParams;
  private shown: string;
  /** This page's writes, oldest first, whose render has not come yet. */
  private pending: string[] = [];

  constructor(initial: URLSearchParams) {
    this.latest = new URLSearchParams(initial);
    this.shown = initial.toString();
  }

  /** The params a render shows. */
  rendered(params: URLSearchParams): void {
    const s = params.toString();
    if (s === this.shown) return;
    this.shown = s;
    const ours = this.pending.indexOf(s);
    if (ours >= 0) {
      // One of ours arrived: it and the writes before it are done; later writes still stand.
      this.pending.splice(0, ours + 1);
      return;
    }
    this.pending = [];
    this.latest = new URLSearchParams(params);
  }

  /** The params to navigate to: `change` applied to the last written. */
  write(change: SearchParamsChange): URLSearchParams {
    this.latest = change(new URLSearchParams(this.latest));
    this.pending.push(this.latest.toString());
    return new URLSearchParams(this.latest);
  }
}

export function useLatestSearchParams(): [URLSearchParams, (change: SearchParamsChange, options?: NavigateOptions) => void] {
  const [params, setParams] = useSearchParams();
  const book = useRef<LatestParams | null>(null);
  book.current ??= new LatestParams(params);
  // Only a committed render counts: React may render a navigation's params in a transition, drop
  // that render, and commit the old params once more before the new ones.
  useLayoutEffect(() => book.current?.rendered(params), [params]);
  const write = useCallback(
    (change: SearchParamsChange, options?: NavigateOptions) => {
      if (book.current) setParams(book.current.write(change), options);
    },
    [setParams],
  );
  return [params, write];
}
