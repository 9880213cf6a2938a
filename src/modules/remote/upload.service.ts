/**
 * Single-file upload to a server over SFTP. When `server_id` arrives before the
 * file part (the usual order: fields first) the file is piped straight into the SFTP write
 * stream: never held whole in memory nor written to local disk, and backpressure from the SSH
 * channel window paces the client.
 *
 * A file part that comes first is spooled to a private temp file (0600 in a 0700 directory,
 * removed on every path) and sent once the fields after it are known, so field order never
 * matters for correctness. The one refused order: a `remote_path` after a file that was already
 * streamed to the default directory (a 400; the file just written is removed again).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SshTarget } from '../../adapters/ssh/types.js';
import type { Actor } from '../../core/actor.js';
import { ID_MAX } from '../../http/schemas.js';
import { BadRequestError, DomainError } from '../../core/errors.js';
import { streamCollector } from '../../core/stream-garbage.js';
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

/** A name with a `..` component is refused, then `/` and `\` become `_`; `''` and `.` are refused. */
export function sanitizeFileName(raw: string): string {
  if (raw.split(/[/\\]/).includes('..')) throw new BadRequestError('The file name must not contain a ".." component', 'file_name_invalid');
  const name = raw.replace(/[/\\]/g, '_');
  if (name.includes('\0')) throw new BadRequestError('The file name contains a NUL byte', 'file_name_invalid');
  if (name === '') throw new BadRequestError('No file was given (the file part has no file name)', 'file_required');
  if (name === '.') throw new BadRequestError('The file name must not be "."', 'file_name_invalid');
  return name;
}

function parseServerId(raw: string | undefined): number {
  if (raw === undefined) throw new BadRequestError('server_id is required', 'server_id_required');
  const s = raw.trim();
  if (!/^\d{1,15}$/.test(s)) throw new BadRequestError('server_id must be numeric', 'server_id_invalid');
  // The same bound as every id in a JSON body (`Id`): a larger one is no row on either database.
  const id = Number(s);
  if (id < 1 || id > ID_MAX) throw new BadRequestError(`server_id must be between 1 and ${ID_MAX}`, 'server_id_invalid');
  return id;
}

function remoteDir(raw: string | undefined): string {
  const dir = raw === undefined || raw.trim() === '' ? DEFAULT_REMOTE_DIR : raw;
  if (dir.includes('\0')) throw new BadRequestError('remote_path contains a NUL byte', 'path_invalid');
  if (hasDotDotComponent(dir)) throw new BadRequestError('remote_path must not contain a ".." component', 'path_invalid');
  return dir;
}

type FilePart = Extract<UploadPart, { type: 'file' }>;

interface Spooled {
  dir: string;
  file: string;
  filename: string;
}

export class UploadService {
  constructor(private readonly d: RemoteDeps & { maxBytes: number }) {}

  async upload(actor: Actor, parts: AsyncIterable<UploadPart>): Promise<UploadResponse> {
    const fields = new Map<string, string>();
    let received: Received | null = null;
    let spooled: Spooled | null = null;
    let pending: UploadPart | null = null;
    try {
      for await (const part of parts) {
        pending = part;
        if (part.type === 'field') {
          if (received && part.fieldname === 'remote_path') {
            throw new BadRequestError('remote_path must come before the file part: the file already went to the default directory', 'upload_field_order');
          }
          // The parser cuts an over-long value silently; a shortened remote_path is a different path.
          if (part.valueTruncated) throw new BadRequestError(`Field ${part.fieldname.slice(0, 50)} is too long`, 'field_too_long');
          if (!fields.has(part.fieldname)) fields.set(part.fieldname, String(part.value));
          continue;
        }
        if (part.fieldname !== 'file') throw new BadRequestError(`Unexpected file field "${part.fieldname.slice(0, 50)}": send the file as "file"`, 'file_field_unexpected');
        if (received || spooled) throw new BadRequestError('Only one file can be uploaded per request', 'one_file_only');
        const filename = sanitizeFileName(part.filename ?? '');
        // The parser stops at the limit and would just end the stream; fail it instead, so the
        // partial file (remote or spooled) is removed and the request answered at once.
        part.file.once('limit', () => part.file.destroy(this.tooLarge()));
        if (fields.has('server_id')) received = await this.streamPart(part, filename, fields);
        else spooled = await this.spool(part, filename);
        pending = null;
      }
      if (spooled) received = await this.send(spooled.filename, fields, () => fs.createReadStream(spooled!.file));
    } catch (err) {
      // Stop reading the body: whatever part was being handled is abandoned.
      if (pending?.type === 'file') pending.file.destroy();
      if (received) await this.remove(received.target, received.response.remote_path);
      throw toClientError(err);
    } finally {
      if (spooled) await fs.promises.rm(spooled.dir, { recursive: true, force: true }).catch(() => {});
    }
    if (!received) {
      if (!fields.has('server_id')) throw new BadRequestError('server_id is required', 'server_id_required');
      throw new BadRequestError('No file was given', 'file_required');
    }
    const r = received.response;
    await this.d.audit.record(actor, 'file_upload', {
      type: 'server',
      id: r.server_id,
      detail: `path=${r.remote_path} size=${r.size}`,
    });
    return r;
  }

  private tooLarge(): BadRequestError {
    return new BadRequestError(`The file exceeds the upload limit of ${this.d.maxBytes} bytes`, 'upload_too_large');
  }

  /** The destination is known: the part goes straight into SFTP. */
  private async streamPart(part: FilePart, filename: string, fields: Map<string, string>): Promise<Received> {
    const received = await this.send(filename, fields, () => part.file);
    if (part.file.truncated) {
      await this.remove(received.target, received.response.remote_path);
      throw this.tooLarge();
    }
    return received;
  }

  /** The destination comes later in the body: keep the file in a private temp file meanwhile. */
  private async spool(part: FilePart, filename: string): Promise<Spooled> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fleet-upload-'));
    const file = path.join(dir, 'part');
    try {
      const collect = streamCollector();
      const counted = async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          collect(chunk.length);
          yield chunk;
        }
      };
      await pipeline(part.file, counted, fs.createWriteStream(file, { mode: 0o600 }));
      if (part.file.truncated) throw this.tooLarge();
      return { dir, file, filename };
    } catch (err) {
      await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => {});
      throw err;
    }
  }

  /** Validates the fields and the server before `open()` is called, then writes over SFTP. */
  private async send(filename: string, fields: Map<string, string>, open: () => Readable): Promise<Received> {
    const serverId = parseServerId(fields.get('server_id'));
    const dir = remoteDir(fields.get('remote_path'));
    const row = await this.d.servers.get(serverId);
    const target = await this.d.servers.connectionFor(row.id);
    const remotePath = `${dir.replace(/\/+$/, '')}/${filename}`;
    let size: number;
    try {
      size = await this.d.ssh.sftpUpload(target, open(), remotePath);
    } catch (err) {
      throw uploadFailure(err, remotePath);
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
