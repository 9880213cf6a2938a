/** Applies the timestamped migrations in `migrations/` at start-up, on both dialects. */
import { Migrator, type Kysely, type MigrationProvider, type Migration } from 'kysely';
import { migrations } from './migrations/index.js';
import type { Database } from './types.js';

const provider: MigrationProvider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  },
};

export class MigrationFailedError extends Error {}

export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  if (error) {
    const failed = (results ?? []).find((r) => r.status === 'Error');
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationFailedError(
      `Database migration ${failed ? `"${failed.migrationName}" ` : ''}failed: ${reason}. ` +
        'The service was not started; fix the database (or restore a backup) and start again.',
    );
  }
  return applied;
}
