import { sql, type Kysely } from 'kysely';

/**
 * The server list's default order, by name ignoring case then id (fleet-query.repository.ts), read
 * from an index: without it every page sorted the whole fleet (10,000 rows with their encrypted
 * credentials) to return 50. Both dialects index the expression and walk it in either direction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('servers_name_lower')
    .on('servers')
    .expression(sql`lower(name), id`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('servers_name_lower').execute();
}
