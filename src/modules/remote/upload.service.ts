/**
 * Single-file upload to a server over SFTP (spec §A upload). The multipart file part is piped
 * straight into the SFTP write stream: the file is never held whole in memory nor written to
 * local disk, and backpressure from the SSH channel window paces the client.
 *
 * Field order: `server_id` (and `remote_path`, if given) must come BEFORE the `file` part,
 * because the file is streamed as it arrives and the destination must be known by then. A file
 * part that arrives before `server_id` is a 400; so is a `server_id`/`remote_path` field after
 * the file (the file just written is removed again).
 */
import type { Readable } from 'node:stream';
import type { SshTarget } from '../../adapters/ssh/types.js';
import type { Actor } from '../../core/actor.js';
import { BadRequestError, DomainError } from '../../core/errors.js';
import { uploadFailure } from './remote-errors.js';
import type { RemoteDeps } from './remote-deps.js';
import { hasDotDotComponent } from './remote-paths.js';
import type { UploadResponse } from './remote.schemas.js';

export const DEFAULT_REMOTE_DIR = '/tmp';

/** The two kinds of multipart part, structurally (so the service stays free of HTTP types). */
export type UploadPart =
  | { type: 'field'; fieldname: string; value: unknown; valueTruncated?: boolean }
  | { type: 'file'; fieldname: string; filename: string; file: Readable & { truncated?: boolean } };

interface Received {
  response: UploadResponse;
  target: SshTarget;
}

/** `/` and `\` become `_`; the empty name, `.` and `..` are refused. */
export function sanitizeFileName(raw: string): string {
  const name = raw.replace(/[/\\]/g, '_');
  if (name.includes('\0')) throw new BadRequestError('The file name contains a NUL byte');
  if (name === '') throw new BadRequestError('No file was given (the file part has no file name)');
  if (name === '.' || name === '..') throw new BadRequestError('The file name must not be "." or ".."');
  return name;
}

function parseServerId(raw: string | undefined): number {
  if (raw === undefined) {
    throw new BadRequestError('server_id is required, and must be sent before the file part');
  }
  const s = raw.trim();
  if (!/^\d{1,15}$/.test(s)) throw new BadRequestError('server_id must be numeric');
  return Number(s);
}

function remoteDir(raw: string | undefined): string {
  const dir = raw === undefined || raw.trim() === '' ? DEFAULT_REMOTE_DIR : raw;
  if (dir.includes('\0')) throw new BadRequestError('remote_path contains a NUL byte');
  if (hasDotDotComponent(dir)) throw new BadRequestError('remote_path must not contain a ".." component');
  return dir;
}

export class UploadService {
  constructor(private readonly d: RemoteDeps & { maxBytes: number }) {}

  async upload(actor: Actor, parts: AsyncIterable<UploadPart>): Promise<UploadResponse> {
    const fields = new Map<string, string>();
    let received: Received | null = null;
    let pending: UploadPart | null = null;
    try {
      for await (const part of parts) {
        pending = part;
        if (part.type === 'field') {
          if (received && (part.fieldname === 'server_id' || part.fieldname === 'remote_path')) {
            throw new BadRequestError(`${part.fieldname} must be sent before the file part`);
          }
          // The parser cuts an over-long value silently; a shortened remote_path is a different path.
          if (part.valueTruncated) throw new BadRequestError(`Field ${part.fieldname.slice(0, 50)} is too long`);
          if (!fields.has(part.fieldname)) fields.set(part.fieldname, String(part.value));
          continue;
        }
        if (part.fieldname !== 'file') throw new BadRequestError(`Unexpected file field "${part.fieldname.slice(0, 50)}": send the file as "file"`);
        if (received) throw new BadRequestError('Only one file can be uploaded per request');
        received = await this.receive(part, fields);
        pending = null;
      }
    } catch (err) {
      // Stop reading the body: whatever part was being handled is abandoned.
      if (pending?.type === 'file') pending.file.destroy();
      if (received) await this.remove(received.target, received.response.remote_path);
      throw toClientError(err);
    }
    if (!received) {
      if (!fields.has('server_id')) throw new BadRequestError('server_id is required');
      throw new BadRequestError('No file was given');
    }
    const r = received.response;
    await this.d.audit.record(actor, 'file_upload', {
      type: 'server',
      id: r.server_id,
      detail: `path=${r.remote_path} size=${r.size}`,
    });
    return r;
  }

  /** Validates everything before the first byte is read, then streams the part into SFTP. */
  private async receive(part: Extract<UploadPart, { type: 'file' }>, fields: Map<string, string>): Promise<Received> {
    const serverId = parseServerId(fields.get('server_id'));
    const dir = remoteDir(fields.get('remote_path'));
    const filename = sanitizeFileName(part.filename ?? '');
    const row = await this.d.servers.get(serverId);
    const target = await this.d.servers.targetFromRow(row);
    const remotePath = `${dir.replace(/\/+$/, '')}/${filename}`;

    const tooLarge = new BadRequestError(`The file exceeds the upload limit of ${this.d.maxBytes} bytes`);
    // The parser stops at the limit and would just end the stream; fail it instead so the
    // partial remote file is removed and the request answered at once.
    part.file.once('limit', () => part.file.destroy(tooLarge));
    let size: number;
    try {
      size = await this.d.ssh.sftpUpload(target, part.file, remotePath);
    } catch (err) {
      throw uploadFailure(err, remotePath);
    }
    if (part.file.truncated) {
      await this.remove(target, remotePath);
      throw tooLarge;
    }
    return { response: { success: true, server_id: row.id, remote_path: remotePath, filename, size }, target };
  }

  /** Best effort: the request is failing anyway, and a leftover is worse than a failed unlink. */
  private async remove(target: SshTarget, remotePath: string): Promise<void> {
    await this.d.ssh
      .withSftp(target, (sftp) => new Promise<void>((resolve) => sftp.unlink(remotePath, () => resolve())))
      .catch(() => {});
  }
}

/** Parser errors (malformed multipart, a client gone mid-body) are client errors, never a 500. */
function toClientError(err: unknown): unknown {
  if (err instanceof DomainError) return err;
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && e.code.startsWith('FST_') && typeof e.statusCode === 'number') return err;
  return uploadFailure(err, '');
}
