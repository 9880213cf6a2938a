import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SFTPWrapper } from 'ssh2';
import type { SftpUploadOptions, UploadSource } from './types.js';

/**
 * Stream `source` into `remotePath` over an open SFTP session. `pipeline` propagates the SFTP
 * write stream's backpressure to the source, so uploads run in constant memory. On any failure
 * or abort the partial remote file is removed: a half-written config file is worse than none.
 */
export async function uploadToSftp(
  sftp: SFTPWrapper,
  source: UploadSource,
  remotePath: string,
  opts: SftpUploadOptions = {},
): Promise<number> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      cb(null, chunk);
    },
  });
  opts.signal?.throwIfAborted();
  // Open the handle ourselves: only once this succeeded is the file ours (created or truncated
  // by us) and ours to delete on failure; an open failure (e.g. EACCES) leaves it alone.
  const handle = await new Promise<Buffer>((resolve, reject) => {
    const cb = (err: Error | undefined, h: Buffer): void => (err ? reject(err) : resolve(h));
    if (opts.mode !== undefined) sftp.open(remotePath, 'w', { mode: opts.mode }, cb);
    else sftp.open(remotePath, 'w', cb);
  }).catch((err: unknown) => {
    // Same contract as pipeline(): the source is consumed or destroyed, never left dangling.
    (source as Partial<Readable>).destroy?.();
    throw err;
  });
  const dest = sftp.createWriteStream(remotePath, { handle, autoClose: true });
  try {
    await pipeline(source as Readable, counter, dest, opts.signal ? { signal: opts.signal } : {});
    if (opts.mode !== undefined) await sftpCall((cb) => sftp.chmod(remotePath, opts.mode!, cb));
    return bytes;
  } catch (err) {
    await sftpCall((cb) => sftp.unlink(remotePath, cb)).catch(() => {});
    throw err;
  }
}

function sftpCall(fn: (cb: (err?: Error | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => fn((err) => (err ? reject(err) : resolve())));
}

/** End the session and wait until its channel is really closed, so the pool slot is free on return. */
export function endSftp(sftp: SFTPWrapper, timeoutMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, timeoutMs);
    t.unref();
    sftp.once('close', () => {
      clearTimeout(t);
      resolve();
    });
    sftp.end();
  });
}
