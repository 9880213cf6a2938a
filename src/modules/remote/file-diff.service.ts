/**
 * Staging file against its pushed copy: a unified diff from the remote
 * version to the local one, both sides capped at 102,400 characters.
 */
import fs from 'node:fs';
import path from 'node:path';
import { shellQuote } from '../../adapters/ssh/quote.js';
import type { Actor } from '../../core/actor.js';
import { errCode, ForbiddenPathError, InternalError, throwIfTooLong } from '../../core/errors.js';
import type { ServerRecord } from '../servers/index.js';
import { isSameOrUnder } from '../../core/paths.js';
import { commandFailureDetail, isConnectionFailure, sshTargetOrFailure } from './remote-errors.js';
import type { RemoteDeps } from './remote-deps.js';
import { assertNoNul, effectiveTargetDir } from './remote-paths.js';
import type { DiffLine, FileDiffBody, FileDiffResponse } from './remote.schemas.js';

export const DIFF_CHAR_LIMIT = 102_400;
/** A character is at most 4 UTF-8 bytes, so this many bytes always hold the first LIMIT characters. */
const READ_BYTES = DIFF_CHAR_LIMIT * 4;
const REMOTE_TIMEOUT_MS = 15_000;
/** Exit status of the remote read for "no regular file there". */
const REMOTE_MISSING = 3;
/** Myers diff is O(N·D); past this the diff degrades to "replace everything" instead of stalling. */
const DIFF_TIMEOUT_MS = 3_000;

interface Side {
  text: string;
  size: number;
  truncated: boolean;
}

/**
 * Caps decoded text (undecodable bytes are already U+FFFD) at the limit, counted in characters
 * (code points: a surrogate pair is one character). `cutShort` says the bytes read
 * were already fewer than the whole file.
 */
function capText(decoded: string, size: number, cutShort: boolean): Side {
  // Fewer UTF-16 units than the limit means fewer characters too: nothing to count.
  if (decoded.length <= DIFF_CHAR_LIMIT) return { text: decoded, size, truncated: cutShort };
  let end = 0;
  for (let chars = 0; end < decoded.length && chars < DIFF_CHAR_LIMIT; chars++) {
    const code = decoded.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < decoded.length ? 2 : 1;
  }
  if (end >= decoded.length) return { text: decoded, size, truncated: cutShort };
  return { text: decoded.slice(0, end), size, truncated: true };
}

/** The local file, or null when it is not a regular file (missing, a directory, a device...). */
async function readLocal(file: string): Promise<Side | null> {
  let fh: fs.promises.FileHandle;
  try {
    // O_NONBLOCK: a FIFO planted in staging must not hang the request.
    fh = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = errCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENXIO') return null;
    throwIfTooLong(err);
    throw new InternalError('Could not read the local file', 'local_file_unreadable');
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return null;
    const want = Math.min(st.size, READ_BYTES);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await fh.read(buf, got, want - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return capText(buf.subarray(0, got).toString('utf8'), st.size, st.size > got);
  } catch (err) {
    if (err instanceof InternalError) throw err;
    throw new InternalError('Could not read the local file', 'local_file_unreadable');
  } finally {
    await fh.close().catch(() => {});
  }
}

type RemoteSide = { state: 'found'; side: Side } | { state: 'missing' } | { state: 'unknown'; error: string };

function remoteReadScript(file: string): string {
  return `f=${shellQuote(file)}; [ -f "$f" ] || exit ${REMOTE_MISSING}; wc -c < "$f" || exit; exec head -c ${READ_BYTES} < "$f"`;
}

/** Patch text (hunks only) → typed lines; the "\ No newline at end of file" markers carry no content. */
function patchLines(patch: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('@@')) out.push({ type: 'header', content: line });
    else if (line.startsWith('+')) out.push({ type: 'add', content: line.slice(1) });
    else if (line.startsWith('-')) out.push({ type: 'del', content: line.slice(1) });
    else if (line.startsWith(' ')) out.push({ type: 'ctx', content: line.slice(1) });
  }
  return out;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The degraded answer when the real diff would take too long: one hunk replacing everything. */
function replaceAll(oldText: string, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  if (a.length === 0 && b.length === 0) return [];
  const header = `@@ -${a.length ? 1 : 0},${a.length} +${b.length ? 1 : 0},${b.length} @@`;
  return [
    { type: 'header', content: header },
    ...a.map((content): DiffLine => ({ type: 'del', content })),
    ...b.map((content): DiffLine => ({ type: 'add', content })),
  ];
}

/**
 * Runs in the library's async mode so a large diff never blocks the event loop in one piece. The
 * library is imported on the first diff: most processes never compare a file, and it costs memory.
 */
async function unifiedDiff(oldText: string, newText: string): Promise<DiffLine[]> {
  const { createTwoFilesPatch, OMIT_HEADERS } = await import('diff');
  return new Promise((resolve) => {
    createTwoFilesPatch('remote', 'local', oldText, newText, undefined, undefined, {
      context: 3,
      headerOptions: OMIT_HEADERS,
      timeout: DIFF_TIMEOUT_MS,
      callback: (patch: string | undefined) => resolve(patch === undefined ? replaceAll(oldText, newText) : patchLines(patch)),
    });
  });
}

export class FileDiffService {
  constructor(private readonly d: RemoteDeps) {}

  async diff(actor: Actor, body: FileDiffBody): Promise<FileDiffResponse> {
    assertNoNul(body.source_path, 'source_path');
    assertNoNul(body.relative_path, 'relative_path');
    if (body.target_path) assertNoNul(body.target_path, 'target_path');
    const source = await this.d.staging.resolveInsideStaging(body.source_path, 'source_path');
    const local = await this.d.staging.resolve(path.resolve(source, body.relative_path));
    if (!isSameOrUnder(local, source)) {
      throw new ForbiddenPathError('relative_path escapes the source directory', 'path_outside_source');
    }
    const row = await this.d.servers.get(body.server_id);
    const remoteFile = `${effectiveTargetDir(body.target_path, row.target_path)}/${body.relative_path}`;
    const audit = (detail: string) =>
      this.d.audit.record(actor, 'file_diff', { type: 'server', id: row.id, detail: `file=${body.relative_path} ${detail}` });

    const localSide = await readLocal(local);
    if (!localSide) {
      await audit('local missing');
      return {
        file_name: body.relative_path,
        local_exists: false,
        remote_exists: null,
        local_size: 0,
        remote_size: null,
        diff_lines: [],
        truncated: false,
        error: 'The local file does not exist or is not a regular file',
      };
    }

    const remote = await this.readRemote(row, remoteFile);
    const remoteText = remote.state === 'found' ? remote.side.text : '';
    const diffLines = await unifiedDiff(remoteText, localSide.text);
    await audit(`remote=${remote.state}`);
    const res: FileDiffResponse = {
      file_name: body.relative_path,
      local_exists: true,
      remote_exists: remote.state === 'unknown' ? null : remote.state === 'found',
      local_size: localSide.size,
      remote_size: remote.state === 'found' ? remote.side.size : null,
      diff_lines: diffLines,
      truncated: localSide.truncated || (remote.state === 'found' && remote.side.truncated),
    };
    if (remote.state === 'unknown') res.error = remote.error;
    return res;
  }

  private async readRemote(row: ServerRecord, file: string): Promise<RemoteSide> {
    const target = await sshTargetOrFailure(this.d.servers, row);
    if ('failure' in target) return { state: 'unknown', error: target.failure };
    try {
      const r = await this.d.ssh.exec(target, remoteReadScript(file), {
        timeoutMs: REMOTE_TIMEOUT_MS,
        maxOutputBytes: READ_BYTES + 64,
      });
      if (!r.timedOut && r.exitCode === REMOTE_MISSING) return { state: 'missing' };
      if (r.timedOut || r.exitCode !== 0) return { state: 'unknown', error: commandFailureDetail(r, 300, REMOTE_TIMEOUT_MS) };
      const nl = r.stdout.indexOf('\n');
      const size = Number(r.stdout.slice(0, nl).trim());
      if (nl < 0 || !Number.isSafeInteger(size)) return { state: 'unknown', error: 'Unexpected output reading the remote file' };
      return { state: 'found', side: capText(r.stdout.slice(nl + 1), size, size > READ_BYTES) };
    } catch (err) {
      if (!isConnectionFailure(err)) throw err;
      return { state: 'unknown', error: err.message };
    }
  }
}
