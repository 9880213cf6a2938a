import path from 'node:path';

/**
 * The remote directory of a push (and of its retries): the request's, else the server's own,
 * else /tmp/sync. Blank values count as absent.
 */
export function effectiveTargetPath(requested: string | null | undefined, serverDefault: string | null | undefined): string {
  const req = requested?.trim();
  if (req) return req;
  const own = serverDefault?.trim();
  return own || '/tmp/sync';
}

/**
 * A remote directory in one canonical spelling, so that two spellings of one directory compare
 * equal: `//` collapses, `.` and `..` segments resolve, a trailing slash goes (`/srv/app/`,
 * `/srv//app` and `/srv/./app` are all `/srv/app`). Relative paths (from the login's home)
 * stay relative.
 */
export function normaliseTargetPath(p: string): string {
  const n = path.posix.normalize(p.trim());
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

/**
 * Whether two normalised directories overlap: the same, or one inside the other. A push into
 * /srv writes /srv/app too (and a full push into /srv deletes in it), so any nesting counts.
 */
export function targetsOverlap(a: string, b: string): boolean {
  if (a === b) return true;
  const inside = (child: string, parent: string) => parent === '/' ? child.startsWith('/') : child.startsWith(`${parent}/`);
  // `.` is the home directory: every relative path is inside it.
  if (a === '.' || b === '.') return !(a.startsWith('/') || b.startsWith('/'));
  return inside(a, b) || inside(b, a);
}
