/**
 * Remote paths as the files page handles them: always absolute, no trailing slash (but `/`), joined
 * and split by `/` only. Nothing here resolves `..`: the server lists exactly the path asked for.
 */
import type { BrowseEntry } from '@server/modules/remote/remote.schemas';

/** `''`, `a/b/`, `//a//b` → `/`, `/a/b`, `/a/b`. */
export function normalizeDir(p: string | null | undefined): string {
  const parts = (p ?? '').split('/').filter((s) => s.length > 0);
  return `/${parts.join('/')}`;
}

export function joinPath(dir: string, name: string): string {
  const d = normalizeDir(dir);
  return d === '/' ? `/${name}` : `${d}/${name}`;
}

export function parentOf(p: string): string {
  const d = normalizeDir(p);
  if (d === '/') return '/';
  return normalizeDir(d.slice(0, d.lastIndexOf('/')));
}

export interface Crumb {
  /** The segment's name; `/` for the root. */
  name: string;
  path: string;
}

/** `/srv/app` → `/`, `/srv`, `/srv/app`. */
export function crumbsOf(p: string): Crumb[] {
  const parts = normalizeDir(p).split('/').filter(Boolean);
  return [{ name: '/', path: '/' }, ...parts.map((name, i) => ({ name, path: `/${parts.slice(0, i + 1).join('/')}` }))];
}

export function isHidden(name: string): boolean {
  return name.startsWith('.');
}

/** The listing as shown: directories first (the server's order is kept), hidden names only when asked. */
export function visibleEntries(entries: BrowseEntry[], showHidden: boolean): BrowseEntry[] {
  const shown = showHidden ? entries : entries.filter((e) => !isHidden(e.name));
  return [...shown.filter((e) => e.is_dir), ...shown.filter((e) => !e.is_dir)];
}

/** A name typed for a new folder or a rename: one path segment, not `.` or `..`. */
export function validName(name: string): boolean {
  const n = name.trim();
  return n.length > 0 && n !== '.' && n !== '..' && !n.includes('/') && !n.includes('\0');
}

/**
 * Which staging file a remote file matches, for file-diff (which reads target + `/` + relative):
 * under the server's target directory the path below it (so `conf/app.conf` matches the same file of
 * a staging directory); elsewhere the file's own directory and name.
 */
export function diffTarget(filePath: string, serverTarget: string | null): { target_path: string; relative_path: string } {
  const file = normalizeDir(filePath);
  const target = serverTarget ? normalizeDir(serverTarget) : null;
  if (target && target !== '/' && file.startsWith(`${target}/`)) return { target_path: target, relative_path: file.slice(target.length + 1) };
  return { target_path: parentOf(file), relative_path: file.slice(file.lastIndexOf('/') + 1) };
}

/** `size` of a browse entry (a decimal string from the server) as a number, or null. */
export function sizeOf(size: string): number | null {
  return /^\d+$/.test(size) ? Number(size) : null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The listing's `modified` (`ls` style in the server's own zone: `Nov 26 10:05`, or `Mar 3 2024`
 * for older files) in the console's language. The server's zone is unknown here, so the wall-clock
 * values are kept as they are (formatted in UTC, never shifted); anything else is shown unchanged.
 */
export function formatModified(modified: string, lang: string): string {
  const m = /^([A-Z][a-z]{2}) (\d{1,2}) (?:(\d\d):(\d\d)|(\d{4}))$/.exec(modified.trim());
  const month = m ? MONTHS.indexOf(m[1]) : -1;
  if (!m || month < 0) return modified;
  if (m[5]) return new Intl.DateTimeFormat(lang, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' }).format(Date.UTC(Number(m[5]), month, Number(m[2])));
  const when = Date.UTC(2000, month, Number(m[2]), Number(m[3]), Number(m[4]));
  return new Intl.DateTimeFormat(lang, { timeZone: 'UTC', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(when);
}
