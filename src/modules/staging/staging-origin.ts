/**
 * Where a staging directory came from: the ZIP it was extracted from (the name the operator's
 * file had, its size, when it arrived), so the console can list "site.zip · 2.1 MiB · 3 min ago"
 * instead of a random directory name. Kept in a sidecar file beside the directory
 * (`<dir>.origin.json`), never inside it: everything inside a staging directory is pushed.
 */
import fs from 'node:fs';
import { StagingOrigin } from './staging-dirs.schemas.js';
import { loadTypeboxValue } from '../../core/typebox-value.js';

export const originFile = (dir: string): string => `${dir}.origin.json`;

export async function writeOrigin(dir: string, origin: StagingOrigin): Promise<void> {
  await fs.promises.writeFile(originFile(dir), JSON.stringify(origin), { mode: 0o600 });
}

/** The recorded origin, or null when there is none (a directory filled by hand) or it is unreadable. */
export async function readOrigin(dir: string): Promise<StagingOrigin | null> {
  try {
    const raw: unknown = JSON.parse(await fs.promises.readFile(originFile(dir), 'utf8'));
    const { Value } = await loadTypeboxValue();
    return Value.Check(StagingOrigin, raw) ? raw : null;
  } catch {
    return null;
  }
}

/** Deleting a directory takes its sidecar with it. */
export async function removeOrigin(dir: string): Promise<void> {
  await fs.promises.rm(originFile(dir), { force: true });
}
