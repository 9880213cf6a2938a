/**
 * Writes the README's configuration table from the environment schema (`npm run docs:config`),
 * between the markers `<!-- config-table:start -->` and `<!-- config-table:end -->`.
 * test/config/config-table.test.ts fails when the README's table is not what this generates.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_NOTES, EnvSchema } from '../src/config/env.schema.js';

export const START = '<!-- config-table:start -->';
export const END = '<!-- config-table:end -->';

export function configTable(): string {
  const rows = Object.entries(EnvSchema.properties).map(([name, schema]) => {
    const s = schema as { default?: unknown; description?: string };
    const def = DEFAULT_NOTES[name] ?? (s.default === undefined ? 'unset' : `\`${String(s.default)}\``);
    return `| \`${name}\` | ${def} | ${(s.description ?? '').replaceAll('|', '\\|')} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

export function withTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end === -1 || end < start) throw new Error(`README.md needs ${START} and ${END} around its configuration table`);
  return `${readme.slice(0, start + START.length)}\n${configTable()}\n${readme.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = path.resolve('README.md');
  fs.writeFileSync(file, withTable(fs.readFileSync(file, 'utf8')));
  console.log('README.md: configuration table written from src/config/env.schema.ts');
}
