import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('password_presets'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('username', 'varchar(100)', (c) => c.notNull())
    .addColumn('password_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('ssh_key_presets'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('username', 'varchar(100)', (c) => c.notNull())
    .addColumn('private_key_enc', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('servers'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('host', 'varchar(255)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull().defaultTo(22))
    .addColumn('username', 'varchar(100)', (c) => c.notNull())
    .addColumn('auth_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('ssh_key_preset_id', 'integer')
    .addColumn('password_preset_id', 'integer')
    .addColumn('password_enc', 'text')
    .addColumn('private_key_enc', 'text')
    .addColumn('target_path', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('host_key_fingerprint', 'varchar(128)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('last_heartbeat_at', 'text')
    .addColumn('agent_token_hash', 'varchar(128)')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('servers_agent_token').on('servers').column('agent_token_hash').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('servers').execute();
  await db.schema.dropTable('ssh_key_presets').execute();
  await db.schema.dropTable('password_presets').execute();
}
