/**
 * Post-push verification: SHA-256 of every staged file against the copy on each
 * server. The remote side is ONE `sha256sum` run per server, fed a NUL-separated file list on
 * stdin through `xargs -0`, so neither argument-length limits nor odd names (spaces, newlines,
 * leading dashes) matter. The remote runs start as soon as the file list is known and overlap
 * with the local hashing.
 */
import { shellQuote } from '../../adapters/ssh/quote.js';
import type { Actor } from '../../core/actor.js';
import { BadRequestError, isClientSafe, NotFoundError } from '../../core/errors.js';
import type { ServerRecord } from '../servers/index.js';
import { commandFailureDetail, isConnectionFailure } from './remote-errors.js';
import type { RemoteDeps } from './remote-deps.js';
import { hashFiles, listFiles } from './local-manifest.js';
import { assertNoNul, effectiveTargetDir } from './remote-paths.js';
import type { VerifyBody, VerifyResponse, VerifyServerResult } from './remote.schemas.js';

const SERVER_CONCURRENCY = 5;
const TIMEOUT_MS = 60_000;
const LIST_CAP = 50;
/** xargs: 0 all fine, 123 some sha256sum run failed (i.e. some files are missing or unreadable). */
const OK_EXIT = new Set([0, 123]);

/** A target directory that cannot be entered holds none of the files: every file is then missing. */
export function remoteHashScript(dir: string): string {
  return `unset CDPATH; cd -- ${shellQuote(dir)} 2>/dev/null || exit 0; LC_ALL=C exec xargs -0 sha256sum --`;
}

/**
 * `sha256sum` output → name → hash. GNU sha256sum escapes a name holding `\`, newline or CR
 * and marks that line with a leading backslash.
 */
export function parseSha256sum(out: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const raw of out.split('\n')) {
    const escaped = raw.startsWith('\\');
    const m = /^([0-9a-f]{64}) [ *](.*)$/s.exec(escaped ? raw.slice(1) : raw);
    if (!m) continue;
    const name = escaped ? m[2].replace(/\\([\\nr])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : '\\')) : m[2];
    map.set(name, m[1]);
  }
  return map;
}

type RemoteOutcome = { row: ServerRecord; hashes: Map<string, string> } | VerifyServerResult;

/** Runs `fn` over `items` with at most `limit` in flight, keeping the input order in the result. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export class VerifyService {
  constructor(private readonly d: RemoteDeps) {}

  async verify(actor: Actor, body: VerifyBody): Promise<VerifyResponse> {
    assertNoNul(body.source_path, 'source_path');
    if (body.target_path) assertNoNul(body.target_path, 'target_path');
    // Only staging may be hashed (403), as for every other local path the service reads.
    const root = await this.d.staging.resolveStagingDir(body.source_path, 'source_path');
    const rels = await listFiles(root, body.max_files ?? 10_000).catch(() => {
      throw new BadRequestError('source_path cannot be read', 'source_unreadable');
    });
    if (rels.length === 0) throw new BadRequestError('source_path holds no files to verify', 'source_empty');

    const ids = [...new Set(body.server_ids)];
    const stdin = Buffer.from(`${rels.join('\0')}\0`);
    const remoteRun = mapLimit(ids, SERVER_CONCURRENCY, (id) => this.remoteHashes(id, rels, stdin, body.target_path));
    remoteRun.catch(() => {}); // awaited below; this only keeps it from counting as unhandled meanwhile
    const manifest = await hashFiles(root, rels);
    const remote = await remoteRun;
    if (manifest.size === 0) throw new BadRequestError('None of the files under source_path could be read', 'source_unreadable');

    const results: Record<string, VerifyServerResult> = {};
    remote.forEach((outcome, i) => {
      results[String(ids[i])] = 'hashes' in outcome ? compare(outcome.row, manifest, outcome.hashes) : outcome;
    });
    const checked = Object.values(results).filter((r) => r.error === undefined).length;
    await this.d.audit.record(actor, 'sync_verify', {
      type: 'sync',
      detail: `source=${root} servers=${ids.join(',')} files=${manifest.size} checked=${checked}`,
    });
    return { results, total_local_files: manifest.size };
  }

  private async remoteHashes(id: number, rels: string[], stdin: Buffer, bodyTarget?: string | null): Promise<RemoteOutcome> {
    let row: ServerRecord;
    try {
      row = await this.d.servers.get(id);
    } catch (err) {
      if (err instanceof NotFoundError) return { server_id: id, server_name: '', error: 'Server not found' };
      throw err;
    }
    const failed = (error: string): VerifyServerResult => ({ server_id: row.id, server_name: row.name, error });
    // Each output line is the hash, two separators and the name, escaped at worst to twice its length.
    const maxOutputBytes = rels.reduce((n, r) => n + 70 + 2 * Buffer.byteLength(r), 64 * 1024);
    try {
      const target = await this.d.servers.connectionFor(row.id);
      const dir = effectiveTargetDir(bodyTarget, row.target_path);
      const r = await this.d.ssh.exec(target, remoteHashScript(dir), { stdin, timeoutMs: TIMEOUT_MS, maxOutputBytes });
      if (r.timedOut || r.exitCode === null || !OK_EXIT.has(r.exitCode)) {
        return failed(commandFailureDetail(r, 300, TIMEOUT_MS));
      }
      return { row, hashes: parseSha256sum(r.stdout) };
    } catch (err) {
      if (isConnectionFailure(err) || isClientSafe(err)) {
        return failed(err.message);
      }
      throw err;
    }
  }
}

function compare(row: ServerRecord, manifest: Map<string, string>, remote: Map<string, string>): VerifyServerResult {
  let matched = 0;
  const missing: string[] = [];
  const mismatched: string[] = [];
  for (const [rel, hash] of manifest) {
    const theirs = remote.get(rel);
    if (theirs === undefined) missing.push(rel);
    else if (theirs !== hash) mismatched.push(rel);
    else matched++;
  }
  return {
    server_id: row.id,
    server_name: row.name,
    matched,
    missing: missing.length,
    mismatched: mismatched.length,
    missing_files: missing.slice(0, LIST_CAP),
    mismatched_files: mismatched.slice(0, LIST_CAP),
  };
}
