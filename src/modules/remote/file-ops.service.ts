/**
 * Remote delete / rename / mkdir (30 s each). Every path goes to the remote shell as a
 * quoted argv element after `--`, so no name can become an option or a command.
 */
import type { Actor } from '../../core/actor.js';
import { BadRequestError } from '../../core/errors.js';
import { commandFailed, commandFailureDetail, isConnectionFailure } from './remote-errors.js';
import type { RemoteDeps } from './remote-deps.js';
import { protectedTarget, pseudoFsTarget } from '../../core/protected-paths.js';
import { assertNoNul, stripTrailingSlash } from './remote-paths.js';
import type { FileOpsBody } from './remote.schemas.js';
import type { FileOpsResponse } from './remote.schemas.js';

const TIMEOUT_MS = 30_000;
const ERROR_CHARS = 300;

const AUDIT_ACTIONS = { delete: 'file_delete', rename: 'file_rename', mkdir: 'file_mkdir' } as const;
type Operation = keyof typeof AUDIT_ACTIONS;

function isOperation(op: string): op is Operation {
  return Object.hasOwn(AUDIT_ACTIONS, op);
}

export class FileOpsService {
  constructor(private readonly d: RemoteDeps) {}

  async run(actor: Actor, body: FileOpsBody): Promise<FileOpsResponse> {
    const op = body.operation;
    if (!isOperation(op)) throw new BadRequestError(`Invalid operation "${op.slice(0, 32)}": use delete, rename or mkdir`, 'operation_invalid');
    assertNoNul(body.path, 'path');
    const p = stripTrailingSlash(body.path);
    let argv: string[];
    let detail: string;
    if (op === 'rename') {
      if (body.new_path === undefined || body.new_path === null || body.new_path === '') {
        throw new BadRequestError('new_path is required for rename', 'new_path_required');
      }
      assertNoNul(body.new_path, 'new_path');
      const to = stripTrailingSlash(body.new_path);
      refuseProtected(p, 'rename');
      refusePseudoFs(to, 'rename into');
      argv = ['mv', '--', p, to];
      detail = `${p} -> ${to}`;
    } else if (op === 'delete') {
      refuseProtected(p, 'delete');
      argv = ['rm', '-rf', '--', p];
      detail = p;
    } else {
      refusePseudoFs(p, 'create a directory in');
      argv = ['mkdir', '-p', '--', p];
      detail = p;
    }

    const row = await this.d.servers.get(body.server_id);
    const target = await this.d.servers.connectionFor(row.id);
    let failure: string | null = null;
    try {
      const r = await this.d.ssh.exec(target, argv, { timeoutMs: TIMEOUT_MS });
      if (commandFailed(r)) failure = commandFailureDetail(r, ERROR_CHARS, TIMEOUT_MS);
    } catch (err) {
      if (!isConnectionFailure(err)) throw err;
      failure = err.message.slice(0, ERROR_CHARS);
    }
    // Attempts that reached the server are audited, failed ones too: they are what an operator
    // reviewing a broken host needs to see.
    await this.d.audit.record(actor, AUDIT_ACTIONS[op], {
      type: 'server',
      id: row.id,
      detail: failure ? `${detail} (failed)` : detail,
    });
    if (failure) throw new BadRequestError(failure, 'remote_command_failed');
    return { success: true, operation: op, path: p };
  }
}

/** Exactly a protected directory, or anything in a pseudo-filesystem: refused for delete and rename. */
function refuseProtected(p: string, op: string): void {
  const hit = protectedTarget(p);
  if (hit !== null) {
    throw new BadRequestError(`Refusing to ${op} ${hit === '/' ? 'the root directory' : `the system directory ${hit}`}`, 'protected_path');
  }
  refusePseudoFs(p, op);
}

/**
 * Nothing below /proc, /sys or /dev is an operator's file, and /proc/<pid>/root reaches the
 * whole filesystem again, so every file operation there (mkdir too) is refused.
 */
function refusePseudoFs(p: string, op: string): void {
  const fs = pseudoFsTarget(p);
  if (fs !== null) throw new BadRequestError(`Refusing to ${op} ${p.slice(0, 200)}: nothing in ${fs} may be changed`, 'protected_path');
}
