import { BadGatewayError, RemoteExecError } from '../../core/errors.js';
import type { ErrorCode } from '../../core/error-codes.js';

/**
 * Every message here is client-facing (the HTTP error mapper turns DomainErrors into
 * `{ detail }`), so it is built only from host, port, user name and fingerprints — never
 * from a password, a private key or the command line.
 */

export type SshConnectionErrorKind =
  | 'refused'
  | 'timeout'
  | 'auth_failed'
  | 'host_key_mismatch'
  | 'dns'
  | 'closed'
  | 'other';

export interface SshEndpoint {
  host: string;
  port: number;
  username: string;
}

/** `host:port`, with IPv6 literals bracketed the way OpenSSH prints them. */
export function formatHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

const SSH_ERROR_CODES: Record<SshConnectionErrorKind, ErrorCode> = {
  refused: 'ssh_unreachable',
  timeout: 'ssh_unreachable',
  dns: 'ssh_unreachable',
  closed: 'ssh_unreachable',
  other: 'ssh_unreachable',
  auth_failed: 'ssh_auth_failed',
  host_key_mismatch: 'ssh_host_key_mismatch',
};

/** 502: the SSH upstream could not be reached or refused us. */
export class SshConnectionError extends BadGatewayError {
  constructor(
    readonly kind: SshConnectionErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, SSH_ERROR_CODES[kind]);
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

export class HostKeyMismatchError extends SshConnectionError {
  constructor(
    host: string,
    port: number,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      'host_key_mismatch',
      `Host key for ${formatHostPort(host, port)} changed: expected ${expected}, got ${actual}`,
    );
  }
}

/** A remote command exited non-zero or timed out (thrown by `execOrThrow`). */
export class ExecError extends RemoteExecError {
  readonly command: string;
  readonly host: string;
  readonly timedOut: boolean;

  constructor(params: {
    command: string;
    exitCode: number | null;
    stderr: string;
    host: string;
    timedOut?: boolean;
  }) {
    const timedOut = params.timedOut ?? false;
    const tail = lastLines(params.stderr, 300);
    const what = timedOut
      ? `Command timed out on ${params.host}`
      : `Command failed on ${params.host} with exit code ${params.exitCode ?? 'unknown (killed by a signal)'}`;
    super(tail ? `${what}: ${tail}` : what, params.exitCode, params.stderr);
    this.command = params.command;
    this.host = params.host;
    this.timedOut = timedOut;
  }
}

function lastLines(text: string, maxChars: number): string {
  const trimmed = text.trim();
  return trimmed.length <= maxChars ? trimmed : `…${trimmed.slice(-maxChars)}`;
}

type ErrorWithDetails = Error & { code?: string; level?: string };

/** Translate an ssh2 / net error raised while connecting into an SshConnectionError. */
export function mapConnectError(err: unknown, ep: SshEndpoint): SshConnectionError {
  if (err instanceof SshConnectionError) return err;
  const e = (err instanceof Error ? err : new Error(String(err))) as ErrorWithDetails;
  const hp = formatHostPort(ep.host, ep.port);
  const code = e.code ?? '';
  const msg = e.message ?? '';
  const opts = { cause: err };

  if (code === 'ECONNREFUSED') return new SshConnectionError('refused', `Connection refused by ${hp}`, opts);
  if (code === 'ETIMEDOUT' || e.level === 'client-timeout' || /timed out/i.test(msg)) {
    return new SshConnectionError('timeout', `Connection to ${hp} timed out`, opts);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || e.level === 'client-dns') {
    return new SshConnectionError('dns', `Could not resolve host name ${ep.host}`, opts);
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new SshConnectionError('other', `Host ${hp} is unreachable`, opts);
  }
  if (/All configured authentication methods failed/i.test(msg) || e.level === 'client-authentication') {
    return new SshConnectionError('auth_failed', `Authentication failed for ${ep.username}@${ep.host}`, opts);
  }
  if (/privateKey|private key|passphrase/i.test(msg)) {
    // ssh2 throws these synchronously while parsing the key; the text names the problem, not the key.
    return new SshConnectionError(
      'auth_failed',
      `Authentication failed for ${ep.username}@${ep.host}: the private key could not be used (${safeDetail(msg)})`,
      opts,
    );
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || /No response from server|Not connected|closed/i.test(msg)) {
    return new SshConnectionError('closed', `Connection to ${hp} closed`, opts);
  }
  return new SshConnectionError('other', `SSH connection to ${hp} failed: ${safeDetail(msg)}`, opts);
}

/** The connection died under an operation already in progress. */
export function connectionClosedError(ep: SshEndpoint, cause?: unknown): SshConnectionError {
  return new SshConnectionError('closed', `Connection to ${formatHostPort(ep.host, ep.port)} closed`, { cause });
}

/** Library messages are short and secret-free, but cap them and drop anything multi-line. */
function safeDetail(msg: string): string {
  const first = msg.split('\n')[0] ?? '';
  return first.length > 200 ? `${first.slice(0, 200)}…` : first;
}
