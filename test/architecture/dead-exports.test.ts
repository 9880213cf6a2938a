/**
 * Every export of src/ is used somewhere (src, test, bench, scripts or the console): an export
 * nobody imports is dead code that a reader still has to understand.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string, ext: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && ext.test(d.name) && !d.parentPath.includes('node_modules') && !d.parentPath.includes('/dist'))
    .map((d) => path.join(d.parentPath, d.name));
}

describe('exports', () => {
  it('none is dead', () => {
    const src = files('src', /\.ts$/);
    const all = [...src, ...files('test', /\.tsx?$/), ...files('bench', /\.ts$/), ...files('scripts', /\.ts$/), ...files('web/src', /\.tsx?$/), ...files('web/test', /\.tsx?$/)];
    const text = new Map(all.map((f) => [f, fs.readFileSync(f, 'utf8')]));
    const dead: string[] = [];
    for (const f of src) {
      for (const m of text.get(f)!.matchAll(/^export (?:async )?(?:function|const|class|type|interface|enum) ([A-Za-z_]\w*)/gm)) {
        const everywhere = new RegExp(`\\b${m[1]}\\b`, 'g');
        const once = new RegExp(`\\b${m[1]}\\b`);
        const usedHere = (text.get(f)!.match(everywhere)?.length ?? 0) > 1;
        const usedElsewhere = all.some((g) => g !== f && once.test(text.get(g)!));
        if (!usedHere && !usedElsewhere) dead.push(`${f}: ${m[1]}`);
      }
    }
    expect(dead).toEqual([]);
  });
});
