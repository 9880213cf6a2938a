import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, IdempotencyKeyRow } from '../../db/types.js';

/** Idempotency keys of requests that start work; written only here. */
export class IdempotencyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records a first request; false when the (scope, key) is already taken. */
  async insert(row: Omit<IdempotencyKeyRow, 'status_code' | 'response'>): Promise<boolean> {
    try {
      await this.db.insertInto('idempotency_keys').values({ ...row, status_code: null, response: null }).execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async get(scope: string, key: string): Promise<IdempotencyKeyRow | undefined> {
    return this.db.selectFrom('idempotency_keys').selectAll().where('scope', '=', scope).where('idem_key', '=', key).executeTakeFirst();
  }

  async complete(scope: string, key: string, statusCode: number, response: string): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, response })
      .where('scope', '=', scope)
      .where('idem_key', '=', key)
      .execute();
  }

  async delete(scope: string, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('idem_key', '=', key).execute();
  }

  async deleteExpired(now: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('expires_at', '<', now).execute();
  }
}
