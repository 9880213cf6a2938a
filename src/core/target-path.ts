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
