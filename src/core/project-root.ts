/**
 * The folder holding the service's package.json, found by walking up from this file, so the same
 * code finds it when run from `src/` (tsx) and from the build in `dist/src/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ProjectRoot {
  dir: string;
  version: string;
}

function find(): ProjectRoot | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'fleet-admin' && pkg.version) return { dir, version: pkg.version };
    }
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

export const PROJECT_ROOT = find();
