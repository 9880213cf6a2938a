/**
 * Streaming uploads over an open SFTP session.
 *
 * Why not `sftp.createWriteStream`: its Writable waits for each WRITE's status before sending the
 * next chunk, so an upload runs at one round trip per ~64 KiB (about a third of OpenSSH's `sftp`).
 * OpenSSH keeps many requests outstanding; here at most MAX_INFLIGHT writes of one source chunk
 * each are pending, so memory stays bounded and the source is paused while they drain.
 *
 * Failure contract: on any error or abort the source is destroyed and the partial remote file
 * removed — only when our open succeeded (the file is ours) and the session is still up. Requests
 * sent after the session closed are never answered by ssh2, so nothing here waits on them.
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { SFTPWrapper } from 'ssh2';
import { streamCollector } from '../../core/stream-garbage.js';
import type { SftpUploadOptions, UploadSource } from './types.js';

const MAX_INFLIGHT = 16;
/** Small parser fragments are gathered (a copy) up to this size; full-size chunks go out as they are. */
const WRITE_CHUNK = 32 * 1024;
const CALL_TIMEOUT_MS = 30_000;

function call<T = void>(fn: (cb: (err: Error | null | undefined, v?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('No response from server')), CALL_TIMEOUT_MS);
    timer.unref();
    fn((err, v) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(v as T);
    });
  });
}

export async function uploadToSftp(
  sftp: SFTPWrapper,
  input: UploadSource,
  remotePath: string,
  opts: SftpUploadOptions = {},
): Promise<number> {
  const source = input as Readable;
  let handle: Buffer;
  try {
    opts.signal?.throwIfAborted();
    handle = await call<Buffer>((cb) =>
      opts.mode !== undefined ? sftp.open(remotePath, 'w', { mode: opts.mode }, cb) : sftp.open(remotePath, 'w', cb),
    );
  } catch (err) {
    source.destroy();
    throw err;
  }

  let pos = 0;
  let inflight = 0;
  let failure: Error | null = null;
  let closed = false;
  let wake: (() => void) | null = null;
  const settled = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const onClose = (): void => {
    closed = true;
    failure ??= new Error('No response from server: the SFTP session closed');
    settled();
  };
  const onAbort = (): void => {
    failure ??= new Error('Upload aborted');
    source.destroy(failure);
    settled();
  };
  sftp.once('close', onClose);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const drainTo = async (limit: number): Promise<void> => {
    while (inflight > limit && !failure) await new Promise<void>((resolve) => (wake = resolve));
  };
  const collect = streamCollector();
  const send = (buf: Buffer): void => {
    collect(buf.length);
    inflight++;
    try {
      sftp.write(handle, buf, 0, buf.length, pos, (err) => {
        inflight--;
        if (err && !failure) failure = err;
        settled();
      });
    } catch (err) {
      // ssh2 throws synchronously once the session is gone.
      inflight--;
      failure ??= err as Error;
    }
    pos += buf.length;
  };

  try {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for await (const chunk of source) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      pending.push(buf);
      pendingBytes += buf.length;
      if (pendingBytes < WRITE_CHUNK) continue;
      await drainTo(MAX_INFLIGHT - 1);
      if (failure) break;
      send(pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes));
      pending = [];
      pendingBytes = 0;
    }
    if (!failure && pendingBytes > 0) {
      await drainTo(MAX_INFLIGHT - 1);
      if (!failure) send(Buffer.concat(pending, pendingBytes));
    }
    await drainTo(0);
    if (failure) throw failure;
    await call((cb) => sftp.close(handle, cb));
    // chmod after the data, so the remote umask cannot narrow the requested mode.
    if (opts.mode !== undefined) await call((cb) => sftp.chmod(remotePath, opts.mode!, cb));
    return pos;
  } catch (err) {
    source.destroy();
    // Let writes already sent finish (or fail) before the file is closed and removed.
    while (inflight > 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
    if (!closed) {
      await call((cb) => sftp.close(handle, cb)).catch(() => {});
      await call((cb) => sftp.unlink(remotePath, cb)).catch(() => {});
    }
    throw failure ?? err;
  } finally {
    sftp.removeListener('close', onClose);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The hidden name an upload is written under before it takes its final name: in the same
 * directory (so the rename stays on one filesystem and is atomic), the final name shortened so
 * the whole fits a file name's 255 bytes.
 */
export function tempUploadPath(remotePath: string): string {
  const slash = remotePath.lastIndexOf('/');
  const base = Buffer.from(remotePath.slice(slash + 1)).subarray(0, 200).toString().replace(/\uFFFD+$/, '');
  return `${remotePath.slice(0, slash + 1)}.${base}.${randomBytes(4).toString('hex')}.fleet-part`;
}

/**
 * Uploads to a temporary name beside `remotePath`, then renames it into place: the final name
 * is either the previous file or the whole new one, never a partial file, even if the service
 * or the connection dies mid-transfer (a killed service leaves at most a hidden `.fleet-part`).
 * On a failure the temporary file is removed where the session still allows it.
 */
export async function uploadViaTemp(sftp: SFTPWrapper, input: UploadSource, remotePath: string, opts: SftpUploadOptions = {}): Promise<number> {
  const temp = tempUploadPath(remotePath);
  const size = await uploadToSftp(sftp, input, temp, opts);
  try {
    await renameOver(sftp, temp, remotePath);
  } catch (err) {
    await call((cb) => sftp.unlink(temp, cb)).catch(() => {});
    throw err;
  }
  return size;
}

/**
 * Replaces `to` with `from`. OpenSSH's posix-rename extension replaces atomically; plain SFTP
 * rename refuses an existing target, so without the extension the old file is removed first.
 */
async function renameOver(sftp: SFTPWrapper, from: string, to: string): Promise<void> {
  try {
    await call((cb) => sftp.ext_openssh_rename(from, to, cb));
    return;
  } catch (err) {
    // ssh2 throws synchronously when the server lacks the extension; a server error is final.
    if (!/not support/i.test((err as Error).message)) throw err;
  }
  await call((cb) => sftp.unlink(to, cb)).catch(() => {});
  await call((cb) => sftp.rename(from, to, cb));
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
