/** Quick changes of the address's search params are all kept, even across a render with the old ones. */
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LatestParams, useLatestSearchParams } from '../../src/components/use-latest-search-params';

function withParam(p: URLSearchParams, k: string, v: string): URLSearchParams {
  p.set(k, v);
  return p;
}

const NoFallback = () => null;

function Filters() {
  const [params, write] = useLatestSearchParams();
  const [, rerender] = useState(0);
  return (
    <div>
      <output>{params.toString()}</output>
      <button type="button" onClick={() => write((p) => withParam(p, 'from', '2026-11-27'))}>from</button>
      <button type="button" onClick={() => rerender((n) => n + 1)}>render</button>
      <button type="button" onClick={() => write((p) => withParam(p, 'to', '2026-11-28'))}>to</button>
    </div>
  );
}

describe('useLatestSearchParams', () => {
  it('builds each change on the last one written, though the route loader delays the navigation and a render comes between', async () => {
    // Like the console's routes: a loader runs on every navigation, so the address changes later.
    const loader = () => new Promise((r) => setTimeout(() => r(null), 100));
    const router = createMemoryRouter([{ path: '/', loader, element: <Filters />, HydrateFallback: NoFallback }], { initialEntries: ['/?type=cpu'] });
    render(<RouterProvider router={router} />);
    await screen.findByText('type=cpu');
    act(() => screen.getByText('from').click());
    act(() => screen.getByText('render').click()); // still the old params in this render
    act(() => screen.getByText('to').click());
    await screen.findByText('type=cpu&from=2026-11-27&to=2026-11-28', {}, { timeout: 5_000 });
    expect(router.state.location.search).toBe('?type=cpu&from=2026-11-27&to=2026-11-28');
  });
});

describe('LatestParams', () => {
  const qs = (s: string) => new URLSearchParams(s);
  const set = (k: string, v: string) => (p: URLSearchParams) => withParam(p, k, v);

  it('keeps a later write when the render of an earlier one arrives after it', () => {
    const book = new LatestParams(qs('type=cpu'));
    book.write(set('server', '7'));
    book.write(set('from', '2026-11-27'));
    book.rendered(qs('type=cpu&server=7')); // the first write's render, late
    expect(book.write(set('to', '2026-11-28')).toString()).toBe('type=cpu&server=7&from=2026-11-27&to=2026-11-28');
  });

  it('keeps the writes across renders of the old params', () => {
    const book = new LatestParams(qs('type=cpu'));
    book.write(set('from', '2026-11-27'));
    book.rendered(qs('type=cpu'));
    expect(book.write(set('to', '2026-11-28')).toString()).toBe('type=cpu&from=2026-11-27&to=2026-11-28');
  });

  it('starts over from the address after a navigation that is none of its writes (Back, a link)', () => {
    const book = new LatestParams(qs('type=cpu'));
    book.write(set('from', '2026-11-27'));
    book.rendered(qs('type=cpu&from=2026-11-27'));
    book.rendered(qs('status=active')); // a link elsewhere
    expect(book.write(set('to', '2026-11-28')).toString()).toBe('status=active&to=2026-11-28');
  });
});
