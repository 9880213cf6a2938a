/**
 * Which build of the console is running, and whether the service now serves another one. Every
 * build gets an id (package version + build time) compiled into the code and written into
 * index.html's `<meta name="fleet-build">`; after an upgrade the old page's chunks are gone (404),
 * and comparing the two ids tells "new build, reload" from "the service is down".
 */
declare const __FLEET_BUILD__: string | undefined;

export const RUNNING_BUILD: string = typeof __FLEET_BUILD__ === 'string' ? __FLEET_BUILD__ : 'dev';

const RELOADED_KEY = 'fleet.reloadedForBuild';

/** A failed `import()` of a page's chunk, as Chromium, Firefox and Safari word it. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error ?? '');
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(message);
}

/** The build id the service serves now, or null when it cannot be reached (or has no id). */
export async function servedBuild(fetchImpl: typeof fetch = fetch): Promise<string | null> {
  try {
    const res = await fetchImpl('/', { cache: 'no-store', headers: { accept: 'text/html' } });
    if (!res.ok) return null;
    const html = await res.text();
    return /<meta\s+name="fleet-build"\s+content="([^"]+)"/.exec(html)?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * True when the service serves a build other than the running one and the page has not already
 * reloaded for that build in this tab: the caller then reloads once. Remembering the build id in
 * sessionStorage means a build that keeps failing cannot make the page reload in a loop.
 */
export function shouldReloadFor(served: string | null, storage: Storage = sessionStorage): boolean {
  if (!served || served === RUNNING_BUILD) return false;
  if (storage.getItem(RELOADED_KEY) === served) return false;
  storage.setItem(RELOADED_KEY, served);
  return true;
}
