/**
 * The per-check verdicts of a diagnosis (`with_checks`): one entry per check in a fixed order, each
 * with what to do when it failed. Advice is a stable code (the console translates it) plus an
 * English sentence for API clients. A check that could not run because an earlier one failed is
 * `skipped`, so the list always names all five.
 */
import type { SshConnectionErrorKind } from '../../adapters/ssh/errors.js';
import { DIAGNOSE_CHECKS, type DiagnoseAdvice, type DiagnoseCheck, type DiagnoseCheckName } from './remote.schemas.js';

export const ADVICE_TEXT: Record<DiagnoseAdvice, string> = {
  start_sshd: 'Nothing accepts connections on this host and port: start sshd on the server, or correct the port in the server settings.',
  check_network: 'The server did not answer in time: check that it is running, and the network and firewall between it and this service.',
  check_host_name: 'The host name does not resolve: correct it in the server settings, or use the IP address.',
  check_credentials: "The server refused the login: check the user name, and that the key's public half is in ~/.ssh/authorized_keys (or the password).",
  add_credentials: 'The server has no usable key or password: add one in the server settings.',
  credentials_undecryptable: "The stored credentials cannot be decrypted with this service's ENCRYPTION_KEY: enter them again.",
  host_key_changed: 'The server presented a different host key: if it was reinstalled, forget the pinned key; otherwise treat it as an attack.',
  free_disk_space: 'The disk is (nearly) full: free space on the server before pushing.',
  create_directory: 'The directory does not exist: create it (Files, New folder), or choose another target path.',
  fix_permissions: 'The login user cannot write here: change the owner or mode of the directory, or log in as a user who can.',
  install_rsync: 'rsync is not installed on the server: install it (apt install rsync, dnf install rsync, apk add rsync).',
  retry_later: 'The check itself failed on the server: run the diagnosis again, and look at the detail.',
};

/** A disk used this much still works, but a push may fill it: shown as a warning. */
export const DISK_WARN_PCT = 90;

/** Where a failed SSH connection points: the network side (reachability) or the login (auth). */
export function connectionVerdict(kind: SshConnectionErrorKind): { check: 'reachability' | 'auth'; advice: DiagnoseAdvice } {
  switch (kind) {
    case 'auth_failed':
      return { check: 'auth', advice: 'check_credentials' };
    case 'host_key_mismatch':
      return { check: 'auth', advice: 'host_key_changed' };
    case 'refused':
      return { check: 'reachability', advice: 'start_sshd' };
    case 'dns':
      return { check: 'reachability', advice: 'check_host_name' };
    default:
      return { check: 'reachability', advice: 'check_network' };
  }
}

export class CheckList {
  private readonly byName = new Map<DiagnoseCheckName, DiagnoseCheck>();

  ok(check: DiagnoseCheckName, detail: string | null = null): void {
    this.byName.set(check, { check, status: 'ok', detail });
  }

  warn(check: DiagnoseCheckName, detail: string | null, advice: DiagnoseAdvice): void {
    this.byName.set(check, { check, status: 'warning', detail, advice, advice_text: ADVICE_TEXT[advice] });
  }

  fail(check: DiagnoseCheckName, detail: string | null, advice: DiagnoseAdvice): void {
    this.byName.set(check, { check, status: 'failed', detail, advice, advice_text: ADVICE_TEXT[advice] });
  }

  /** Every check in order; those never decided are `skipped`. */
  list(): DiagnoseCheck[] {
    return DIAGNOSE_CHECKS.map(
      (check) => this.byName.get(check) ?? { check, status: 'skipped', detail: null },
    );
  }
}
