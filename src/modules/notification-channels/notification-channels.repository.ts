import type { Insertable, Kysely } from 'kysely';
import type { Database, NotificationChannelRow, NotificationChannelsTable } from '../../db/types.js';

export type ChannelValues = Omit<Insertable<NotificationChannelsTable>, 'id'>;
export type ChannelPatch = Partial<ChannelValues>;

export class NotificationChannelsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(onlyEnabled = false): Promise<NotificationChannelRow[]> {
    let q = this.db.selectFrom('notification_channels').selectAll();
    if (onlyEnabled) q = q.where('enabled', '=', 1);
    return q.orderBy('id').execute();
  }

  findById(id: number): Promise<NotificationChannelRow | undefined> {
    return this.db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByName(name: string): Promise<NotificationChannelRow | undefined> {
    return this.db.selectFrom('notification_channels').selectAll().where('name', '=', name).executeTakeFirst();
  }

  create(values: ChannelValues): Promise<NotificationChannelRow> {
    return this.db.insertInto('notification_channels').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, patch: ChannelPatch): Promise<NotificationChannelRow | undefined> {
    return this.db.updateTable('notification_channels').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('notification_channels').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
