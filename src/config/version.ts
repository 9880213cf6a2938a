/** The service's version, read once from its package.json (found from src/ and from dist/ alike). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function readVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'fleet-admin' && pkg.version) return pkg.version;
    }
    const up = path.dirname(dir);
    if (up === dir) return '0.0.0';
    dir = up;
  }
}

export const VERSION = readVersion();
