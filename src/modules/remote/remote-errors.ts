/**
 * The one place that decides how an SSH failure surfaces per endpoint:
 *
 * | endpoint  | connection failure             | command failure / timeout          |
 * |-----------|--------------------------------|------------------------------------|
 * | browse    | 200 `{ entries: [], error }`   | 200, first 500 chars of stderr     |
 * | file-ops  | 400                            | 400, first 300 chars of stderr     |
 * | diagnose  | `ssh_ok: false` + error entry  | error entry for that check         |
 * | file-diff | `remote_exists: null`          | `remote_exists: null`              |
 * | verify    | `{ server_id, server_name, error }` per server                      |
 * | upload    | 502; SFTP permission denied 403; any other SFTP status 400          |
 *
 * Messages come from the SSH adapter (host, port and user only) or from remote stderr, never
 * from credentials.
 */
import { SshConnectionError } from '../../adapters/ssh/errors.js';
import type { ExecResult, SshTarget } from '../../adapters/ssh/types.js';
import { BadGatewayError, BadRequestError, DomainError, ForbiddenError, isClientSafe } from '../../core/errors.js';
import type { ServerRecord } from '../servers/index.js';
import type { RemoteDeps } from './remote-deps.js';

/** SFTP status codes (draft-ietf-secsh-filexfer-02), as ssh2 sets them on `err.code`. */
const SFTP_NO_SUCH_FILE = 2;
const SFTP_PERMISSION_DENIED = 3;

/** ssh2 / socket messages that mean the transport died under a running SFTP transfer. */
const TRANSPORT_GONE = /No response from server|Not connected|connection (lost|closed|reset)|ECONNRESET|EPIPE|Channel closed/i;

export function isConnectionFailure(err: unknown): err is SshConnectionError {
  return err instanceof SshConnectionError;
}

/**
 * The server's SSH target, or why there is none (no credentials, or credentials that no longer
 * decrypt) as `{ failure }`: the endpoints that report SSH failures in their body report this too.
 */
export async function sshTargetOrFailure(servers: RemoteDeps['servers'], row: ServerRecord): Promise<SshTarget | { failure: string }> {
  try {
    return await servers.connectionFor(row.id);
  } catch (err) {
    if (!isClientSafe(err)) throw err;
    return { failure: `SSH connection failed: ${err.message}` };
  }
}

/**
 * A remote command's failure as a client-facing sentence: the head of stderr when there is one
 * (that is where the remote tool names the problem), else a generic line with the exit status.
 */
export function commandFailureDetail(r: ExecResult, maxChars: number, timeoutMs: number): string {
  if (r.timedOut) return `Remote command timed out after ${Math.round(timeoutMs / 1000)} s`;
  const stderr = r.stderr.trim();
  if (stderr) return stderr.slice(0, maxChars);
  return `Remote command failed with exit code ${r.exitCode ?? 'unknown (killed by a signal)'}`;
}

/** True when a command did not finish cleanly. */
export function commandFailed(r: ExecResult): boolean {
  return r.timedOut || r.exitCode !== 0;
}

function sftpStatus(err: unknown): number | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : null;
}

/** Upload failures: SFTP permission denied 403, other SFTP statuses 400, the connection 502. */
export function uploadFailure(err: unknown, remotePath: string): DomainError {
  if (err instanceof DomainError) return err;
  const status = sftpStatus(err);
  const message = err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : String(err);
  if (status === SFTP_PERMISSION_DENIED) return new ForbiddenError(`Permission denied writing ${remotePath}`, 'remote_permission_denied');
  if (status === SFTP_NO_SUCH_FILE) return new BadRequestError(`SFTP error: no such directory for ${remotePath}`, 'remote_dir_not_found');
  if (status !== null) return new BadRequestError(`SFTP error: ${message}`, 'sftp_failed');
  if (TRANSPORT_GONE.test(message)) return new BadGatewayError(`SSH connection failed during the upload: ${message}`, 'ssh_connection_lost');
  // The request side (a client that went away mid-body, a malformed multipart body).
  return new BadRequestError(`Upload failed: ${message}`, 'upload_failed');
}
