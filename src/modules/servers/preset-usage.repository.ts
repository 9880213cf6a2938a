/** Which servers refer to a preset: reads of the servers table, which this module owns. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { PresetKind, PresetServer } from './preset-usage.schemas.js';

const COLUMN = { password: 'password_preset_id', ssh_key: 'ssh_key_preset_id' } as const;

export class PresetUsageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  serversUsing(kind: PresetKind, presetId: number): Promise<PresetServer[]> {
    return this.db
      .selectFrom('servers')
      .select(['id', 'name', 'host', 'port', 'username', 'auth_type', 'status'])
      .where(COLUMN[kind], '=', presetId)
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  async counts(kind: PresetKind): Promise<{ preset_id: number; servers: number }[]> {
    const col = COLUMN[kind];
    const rows = await this.db
      .selectFrom('servers')
      .select([col, (eb) => eb.fn.countAll<number>().as('n')])
      .where(col, 'is not', null)
      .groupBy(col)
      .execute();
    return rows.map((r) => ({ preset_id: Number(r[col]), servers: Number(r.n) })).sort((a, b) => a.preset_id - b.preset_id);
  }
}
