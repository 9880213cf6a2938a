import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withTable } from '../../scripts/config-table.js';

describe('README configuration table', () => {
  it('is exactly what the environment schema generates (run `npm run docs:config` after changing it)', () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    expect(readme).toBe(withTable(readme));
  });
});
