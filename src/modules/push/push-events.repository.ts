import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

export interface StoredEvent {
  seq: number;
  payload: string;
}

/** The numbered live messages of push batches (see push-journal.ts). */
export class PushEventsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(batchId: string, seq: number, payload: string, createdAt: string): Promise<void> {
    await this.db.insertInto('push_events').values({ batch_id: batchId, seq, payload, created_at: createdAt }).execute();
  }

  async maxSeq(batchId: string): Promise<number> {
    const row = await this.db
      .selectFrom('push_events')
      .select((eb) => eb.fn.max<number | null>('seq').as('max'))
      .where('batch_id', '=', batchId)
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }

  async since(batchId: string, after: number, limit: number): Promise<StoredEvent[]> {
    return this.db
      .selectFrom('push_events')
      .select(['seq', 'payload'])
      .where('batch_id', '=', batchId)
      .where('seq', '>', after)
      .orderBy('seq', 'asc')
      .limit(limit)
      .execute();
  }

  async deleteOlderThan(before: string): Promise<number> {
    const r = await this.db.deleteFrom('push_events').where('created_at', '<', before).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
