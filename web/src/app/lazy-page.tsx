/**
 * A route's page loaded from its own chunk. React Router keeps a rejected `lazy()` for the life
 * of the document and then renders neither the page nor the route's error element, so the chunk
 * is not imported in `lazy()` alone: the route's loader imports it (again, on every visit, until
 * it arrives) and a failure is a loader error, which the route's error element shows in place of
 * the page. `data` is the route's own loader, run alongside.
 */
import type { ComponentType } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router';

type Module = { default: ComponentType };

/** The route's component: the page its loader imported. */
function LazyPage() {
  const { Page } = useLoaderData() as { Page: ComponentType };
  return <Page />;
}

export function lazyPage(load: () => Promise<Module>, data?: (args: LoaderFunctionArgs) => unknown) {
  return async () => {
    let Page: ComponentType | null = null;
    let pending: Promise<void> | null = null;
    const ensure = (): Promise<void> => {
      if (Page) return Promise.resolve();
      pending ??= load()
        .then((m) => {
          Page = m.default;
        })
        .finally(() => {
          pending = null;
        });
      return pending;
    };
    // Started now, awaited by the loader: the route's own data request runs alongside the chunk.
    ensure().catch(() => {});
    return {
      loader: async (args: LoaderFunctionArgs) => {
        await Promise.all([ensure(), data?.(args)]);
        return { Page: Page as ComponentType };
      },
      Component: LazyPage,
    };
  };
}
