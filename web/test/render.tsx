/**
 * Renders a component the way the console does: Mantine, a fresh react-query client (no retries,
 * so a refused request shows at once) and a router at `path`.
 */
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type RenderResult, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';

export interface RenderOptions {
  /** The URL the router starts at. */
  path?: string;
  /** The route pattern the element is mounted on (default: every path). */
  route?: string;
  /** Elements on other routes, to see where a page navigates to. */
  routes?: Record<string, ReactElement>;
}

export function renderWithProviders(ui: ReactElement, o: RenderOptions = {}): RenderResult & { client: QueryClient } {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY }, mutations: { retry: false } } });
  const result = render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[o.path ?? '/']}>
          <Routes>
            <Route path={o.route ?? '*'} element={ui} />
            {Object.entries(o.routes ?? {}).map(([path, el]) => (
              <Route key={path} path={path} element={el} />
            ))}
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, client };
}

/** A JSON answer as fetch gives it. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
