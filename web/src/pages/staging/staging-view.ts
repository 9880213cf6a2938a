/**
 * The staging page's logic, apart from its views: what a preview's bytes are (text or binary),
 * the way back up from a browsed folder, and the links into the push flow.
 */
import type { StagingDir } from '@server/modules/staging/staging-dirs.schemas';
import type { PreviewResponse } from '@server/modules/staging/staging.schemas';

export type PreviewContent = { kind: 'text'; text: string } | { kind: 'binary' };

/**
 * Text only when the service read the bytes as UTF-8 and they hold no NUL (valid UTF-8, but no
 * text file has one). A character cut by the service's 4096-byte window is dropped, not shown
 * as a replacement mark.
 */
export function previewContent(p: PreviewResponse): PreviewContent {
  if (p.encoding_hint !== 'text') return { kind: 'binary' };
  const bytes = Uint8Array.from(atob(p.content_base64), (c) => c.charCodeAt(0));
  if (bytes.includes(0)) return { kind: 'binary' };
  return { kind: 'text', text: new TextDecoder('utf-8').decode(bytes, { stream: p.truncated }) };
}

/** How many bytes a preview shows (the service reads at most 4096). */
export function previewShown(p: PreviewResponse): number {
  return Math.floor((p.content_base64.length * 3) / 4) - (p.content_base64.endsWith('==') ? 2 : p.content_base64.endsWith('=') ? 1 : 0);
}

export interface Crumb {
  label: string;
  path: string;
}

/**
 * The folders from the staging directory (`root`, labelled `rootLabel`) down to `path`; the trail
 * never climbs above the staging directory. Without a known root, the path is its own root.
 */
export function crumbs(path: string, root: string | null, rootLabel: string): Crumb[] {
  const base = root && (path === root || path.startsWith(`${root}/`)) ? root : path;
  const rest = path.slice(base.length).split('/').filter(Boolean);
  const out: Crumb[] = [{ label: rootLabel, path: base }];
  let at = base;
  for (const part of rest) {
    at = `${at}/${part}`;
    out.push({ label: part, path: at });
  }
  return out;
}

/** The staging directory `path` lies in, from the listed ones. */
export function rootOf(path: string, dirs: StagingDir[]): StagingDir | null {
  return dirs.find((d) => path === d.path || path.startsWith(`${d.path}/`)) ?? null;
}

export const joinPath = (dir: string, name: string): string => (dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`);

/** The push flow opened on its servers step with `source` chosen (see push-flow-params). */
export function pushLink(source: string): string {
  return `/push?${new URLSearchParams({ step: 'servers', source })}`;
}

export function browseLink(path: string): string {
  return `/staging/browse?${new URLSearchParams({ path })}`;
}

/** What operators recognise a directory by: the ZIP's name, else the directory's own. */
export function dirTitle(d: StagingDir): string {
  return d.zip?.filename ?? d.name;
}

/** The age shown and used by "delete older than": the ZIP's arrival, else the directory's mtime. */
export function dirTime(d: StagingDir): string {
  return d.zip?.uploaded_at ?? d.modified;
}

export function olderThan(dirs: StagingDir[], days: number, now = Date.now()): StagingDir[] {
  const cutoff = now - days * 86_400_000;
  return dirs.filter((d) => Date.parse(dirTime(d)) < cutoff);
}
