/**
 * The import rules of `.dependency-cruiser.cjs` hold for all of src/: no circles, nothing but
 * the entry points imports the composition root, layers only import downwards, and features
 * meet only at each other's index.ts or *.schemas.ts.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const DEPCRUISE = path.resolve('node_modules/.bin/depcruise');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: Array<{ name: string }>;
}

describe('import graph', () => {
  it('breaks none of the architecture rules', async () => {
    const { stdout } = await run(DEPCRUISE, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const report = JSON.parse(stdout) as { summary: { violations: Violation[]; totalCruised: number } };
    // Sanity: the cruise really read the TypeScript sources (a broken parser would cruise nothing).
    expect(report.summary.totalCruised).toBeGreaterThan(150);
    const lines = report.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(lines).toEqual([]);
  }, 60_000);
});
