/** Local path helpers with no I/O. */

/** True when `child` is `parent` or lies below it (both already resolved). */
export function isSameOrUnder(child: string, parent: string): boolean {
  if (parent === '/') return child.startsWith('/');
  const p = parent.endsWith('/') ? parent.slice(0, -1) : parent;
  return child === p || child.startsWith(`${p}/`);
}
