/**
 * An empty database of each kind for tests that migrate it themselves (the migrations and the
 * foreign keys): a throwaway PostgreSQL database or a SQLite file in a temporary directory. What
 * it creates is undone by the cleanups it pushes onto `cleanups` (run them in reverse).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createPostgresDatabase, type DbKind } from '../helpers/targets.js';

export type Cleanup = () => Promise<void> | void;

export async function freshDb(kind: DbKind, cleanups: Cleanup[]): Promise<DatabaseHandle> {
  let url: string;
  if (kind === 'postgres') {
    const tmp = await createPostgresDatabase();
    cleanups.push(() => tmp.drop());
    url = tmp.url;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-db-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    url = `sqlite://${path.join(dir, 'x.db')}`;
  }
  const h = createDatabase(url);
  cleanups.push(() => h.destroy());
  return h;
}
