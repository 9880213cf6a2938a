/** A page that cannot load shows "could not be loaded" with Retry inside the shell, and reloads once for a new build. */
import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RUNNING_BUILD } from '../../src/app/build-version';
import { lazyPage } from '../../src/app/lazy-page';
import { RouteError } from '../../src/app/RouteError';

const CHUNK_GONE = new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/assets/HistoryPage-abc123.js');

function html(build: string): Response {
  return new Response(`<!doctype html><html><head><meta name="fleet-build" content="${build}"></head></html>`, { status: 200 });
}

function renderAt(fetchImpl: typeof fetch, reload: () => void, fail: () => never = () => { throw CHUNK_GONE; }) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <div>
            <nav>
              <Link to="/">Dashboard</Link>
              <Link to="/history">History</Link>
            </nav>
            <main>
              <Outlet />
            </main>
          </div>
        ),
        children: [
          { index: true, element: <p>dashboard</p> },
          {
            path: 'history',
            errorElement: <RouteError reload={reload} fetchImpl={fetchImpl} />,
            lazy: lazyPage(async () => fail()),
          },
        ],
      },
    ],
    { initialEntries: ['/history'] },
  );
  return render(
    <MantineProvider env="test">
      <RouterProvider router={router} />
    </MantineProvider>,
  );
}

afterEach(() => sessionStorage.clear());

describe('RouteError', () => {
  it('shows the message and Retry inside the shell; Retry reloads once the service answers', async () => {
    const reload = vi.fn();
    let up = false;
    const fetchImpl = vi.fn(async () => (up ? html(RUNNING_BUILD) : Promise.reject(new TypeError('Failed to fetch')))) as unknown as typeof fetch;
    renderAt(fetchImpl, reload);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This page could not be loaded');
    // The shell's navigation is still there and usable.
    expect(screen.getByRole('link', { name: 'Dashboard' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('The service cannot be reached. Check your connection.')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();

    up = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('the same build served: no automatic reload (the service was only down)', async () => {
    const reload = vi.fn();
    const fetchImpl = vi.fn(async () => html(RUNNING_BUILD)) as unknown as typeof fetch;
    renderAt(fetchImpl, reload);
    await screen.findByRole('alert');
    await waitFor(() => expect(fetchImpl).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 0));
    expect(reload).not.toHaveBeenCalled();
  });

  it('a new build served after an upgrade: reloads by itself exactly once per build', async () => {
    const reload = vi.fn();
    const fetchImpl = vi.fn(async () => html('9.9.9+new')) as unknown as typeof fetch;
    const first = renderAt(fetchImpl, reload);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    first.unmount();
    // The reloaded page still fails (the new build is broken too): no second reload, no loop.
    const again = vi.fn();
    renderAt(fetchImpl, again);
    await screen.findByRole('alert');
    await waitFor(() => expect(fetchImpl).toHaveBeenCalledTimes(2));
    await new Promise((r) => setTimeout(r, 0));
    expect(again).not.toHaveBeenCalled();
  });

  it('another failure (data refused) shows its text and does not look for a new build', async () => {
    const reload = vi.fn();
    const fetchImpl = vi.fn(async () => html('9.9.9+new')) as unknown as typeof fetch;
    renderAt(fetchImpl, reload, () => {
      throw new Error('boom');
    });
    expect((await screen.findByRole('alert')).textContent).toContain('boom');
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('lazyPage', () => {
  it('imports a chunk that failed again on the next visit, and then shows the page', async () => {
    let up = false;
    const load = vi.fn(async () => {
      if (!up) throw CHUNK_GONE;
      return { default: () => <p>history page</p> };
    });
    const router = createMemoryRouter(
      [
        {
          path: '/',
          element: <Outlet />,
          children: [
            { index: true, element: <p>dashboard</p> },
            { path: 'history', errorElement: <RouteError reload={() => {}} fetchImpl={async () => html(RUNNING_BUILD)} />, lazy: lazyPage(load) },
          ],
        },
      ],
      { initialEntries: ['/history'] },
    );
    render(
      <MantineProvider env="test">
        <RouterProvider router={router} />
      </MantineProvider>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('This page could not be loaded');
    up = true;
    await router.navigate('/');
    await router.navigate('/history');
    expect(await screen.findByText('history page')).toBeTruthy();
  });
});
