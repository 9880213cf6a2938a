import type { Kysely } from 'kysely';

/**
 * One row per login ("family"): every refresh token descended from that login carries the family
 * id, and only the newest one (current_jti) may be used. Presenting an older one means a token
 * was copied, so the whole family is revoked. created_at caps the session's total age.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('refresh_families')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('admin_id', 'integer', (c) => c.notNull())
    .addColumn('current_jti', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('refresh_families_admin').on('refresh_families').column('admin_id').execute();
  await db.schema.createIndex('refresh_families_created_at').on('refresh_families').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('refresh_families').execute();
}
