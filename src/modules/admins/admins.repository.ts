import type { CompiledQuery, Kysely } from 'kysely';
import type { AdminRow, Database } from '../../db/types.js';
import { nowIso } from '../../core/time.js';

/** Called after every write to an admin row (the request-time lookup drops its copy). */
export type AdminChanged = (id: number) => Promise<void>;

export class AdminsRepository {
  /** Built once: every authenticated request runs it, and building costs more than running it. */
  private readonly byId: CompiledQuery<AdminRow>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly changed: AdminChanged = async () => {},
  ) {
    this.byId = db.selectFrom('admins').selectAll().where('id', '=', 0).compile();
  }

  async findById(id: number): Promise<AdminRow | undefined> {
    const { rows } = await this.db.executeQuery<AdminRow>({ ...this.byId, parameters: [id] });
    return rows[0];
  }

  findByUsername(username: string): Promise<AdminRow | undefined> {
    return this.db.selectFrom('admins').selectAll().where('username', '=', username).executeTakeFirst();
  }

  list(): Promise<AdminRow[]> {
    return this.db.selectFrom('admins').selectAll().orderBy('id').execute();
  }

  async count(): Promise<number> {
    const r = await this.db
      .selectFrom('admins')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async create(username: string, passwordHash: string): Promise<AdminRow> {
    return this.db
      .insertInto('admins')
      .values({ username, password_hash: passwordHash, created_at: nowIso() })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Deletes unless it is the last admin; the check and delete run in one transaction. */
  async deleteUnlessLast(id: number): Promise<'deleted' | 'missing' | 'last'> {
    const outcome = await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('admins').select('id').where('id', '=', id).executeTakeFirst();
      if (!row) return 'missing';
      const { n } = await trx
        .selectFrom('admins')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(n) <= 1) return 'last';
      await trx.deleteFrom('admins').where('id', '=', id).execute();
      return 'deleted' as const;
    });
    if (outcome === 'deleted') await this.changed(id);
    return outcome;
  }

  /** A new password revokes every earlier token by bumping token_version. */
  async setPassword(id: number, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('admins')
      .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1) }))
      .where('id', '=', id)
      .execute();
    await this.changed(id);
  }

  /** Revokes every token issued so far (access and refresh) without touching the password: the row after it. */
  async bumpTokenVersion(id: number): Promise<AdminRow | undefined> {
    const row = await this.db
      .updateTable('admins')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    await this.changed(id);
    return row;
  }

  /** A secret stored while TOTP is off (setup, disable) starts with no used step. */
  async setTotp(id: number, secretEnc: string | null, enabled: boolean): Promise<void> {
    await this.db
      .updateTable('admins')
      .set({ totp_secret_enc: secretEnc, totp_enabled: enabled ? 1 : 0, ...(enabled ? {} : { totp_last_step: null }) })
      .where('id', '=', id)
      .execute();
    await this.changed(id);
  }

  /**
   * Records `step` as the admin's last used TOTP step, only when it is later than the one
   * recorded: true when this call claimed it. One conditional UPDATE, so of two requests racing
   * with the same code exactly one wins, on any number of processes.
   */
  async claimTotpStep(id: number, step: number): Promise<boolean> {
    const r = await this.db
      .updateTable('admins')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    // Not announced to the other processes: nothing reads this column from a kept row.
    return Number(r.numUpdatedRows) === 1;
  }
}
