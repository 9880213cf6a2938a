import { sql, type Kysely, type Updateable } from 'kysely';
import type { Database, ServerRow, ServersTable } from '../../db/types.js';

export type NewServerValues = Omit<
  ServerRow,
  'id' | 'status' | 'last_heartbeat_at' | 'agent_token_hash' | 'ssh_last_ok_at' | 'ssh_last_error_at' | 'ssh_last_error' | 'ssh_failing_since'
>;
export type ServerPatch = Updateable<ServersTable>;

/**
 * The columns of `servers` that hold credentials: encrypted secrets and the agent token's hash.
 * They never leave this module except as a resolved connection (`ServersService.connectionFor`).
 */
export const SERVER_SECRET_COLUMNS = ['password_enc', 'private_key_enc', 'agent_token_hash'] as const;

/** A server as other features see it: every column but the secret ones. */
export type ServerRecord = Omit<ServerRow, (typeof SERVER_SECRET_COLUMNS)[number]>;

const RECORD_COLUMNS = [
  'id', 'name', 'host', 'port', 'username', 'auth_type', 'ssh_key_preset_id', 'password_preset_id', 'target_path', 'tags',
  'host_key_fingerprint', 'status', 'last_heartbeat_at', 'ssh_last_ok_at', 'ssh_last_error_at', 'ssh_last_error', 'ssh_failing_since',
  'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof ServerRecord>;

export class ServersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<ServerRow[]> {
    return this.db.selectFrom('servers').selectAll().orderBy('id').execute();
  }

  findById(id: number): Promise<ServerRow | undefined> {
    return this.db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The server without its secret columns (they are not even read). */
  findRecord(id: number): Promise<ServerRecord | undefined> {
    return this.db.selectFrom('servers').select(RECORD_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  async nameTaken(name: string, exceptId?: number): Promise<boolean> {
    let q = this.db.selectFrom('servers').select('id').where('name', '=', name);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  create(values: NewServerValues): Promise<ServerRow> {
    return this.db.insertInto('servers').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, patch: ServerPatch): Promise<ServerRow | undefined> {
    return this.db.updateTable('servers').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('servers').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * Trust on first use: records the fingerprint only while none is pinned, so a pin set by an
   * admin in the meantime is never overwritten by a connection that raced it.
   */
  async pinHostKey(id: number, fingerprint: string): Promise<boolean> {
    const r = await this.db
      .updateTable('servers')
      .set({ host_key_fingerprint: fingerprint })
      .where('id', '=', id)
      .where('host_key_fingerprint', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** A contact worked: the failing streak (if any) ends. */
  async recordSshOk(id: number, at: string): Promise<void> {
    await this.db.updateTable('servers').set({ ssh_last_ok_at: at, ssh_failing_since: null }).where('id', '=', id).execute();
  }

  /** A contact failed with `kind`: the streak starts now unless it is already running. */
  async recordSshFailure(id: number, at: string, kind: string): Promise<void> {
    await this.db
      .updateTable('servers')
      .set((eb) => ({
        ssh_last_error_at: at,
        ssh_last_error: kind,
        ssh_failing_since: eb.fn.coalesce('ssh_failing_since', eb.val(at)),
      }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * Servers the probe should contact: no heartbeat since `heartbeatCutoff` (no agent, or a silent
   * one) and no SSH contact since `contactCutoff`, least recently contacted first.
   */
  async probeCandidates(heartbeatCutoff: string, contactCutoff: string, limit: number): Promise<ServerRow[]> {
    return this.db
      .selectFrom('servers')
      .selectAll()
      .where((eb) => eb.or([eb('last_heartbeat_at', 'is', null), eb('last_heartbeat_at', '<', heartbeatCutoff)]))
      .where((eb) => eb.or([eb('ssh_last_ok_at', 'is', null), eb('ssh_last_ok_at', '<', contactCutoff)]))
      .where((eb) => eb.or([eb('ssh_last_error_at', 'is', null), eb('ssh_last_error_at', '<', contactCutoff)]))
      .orderBy(sql`coalesce(ssh_last_ok_at, ssh_last_error_at, '')`)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async clearHostKey(id: number, updatedAt: string): Promise<boolean> {
    const r = await this.db
      .updateTable('servers')
      .set({ host_key_fingerprint: null, updated_at: updatedAt })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
