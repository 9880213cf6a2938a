import { describe, expect, it } from 'vitest';
import { sideBySide } from '../../../src/components/batch/side-by-side';

describe('side-by-side diff rows', () => {
  it('pairs removals with the additions after them and keeps context on both sides', () => {
    const rows = sideBySide([
      { type: 'header', content: '@@ -1,4 +1,3 @@' },
      { type: 'ctx', content: 'a' },
      { type: 'del', content: 'b' },
      { type: 'del', content: 'c' },
      { type: 'add', content: 'B' },
      { type: 'ctx', content: 'd' },
      { type: 'add', content: 'e' },
    ]);
    const show = rows.map((r) => r.header ?? `${r.left.kind}:${r.left.text}|${r.right.kind}:${r.right.text}`);
    expect(show).toEqual(['@@ -1,4 +1,3 @@', 'ctx:a|ctx:a', 'del:b|add:B', 'del:c|empty:', 'ctx:d|ctx:d', 'empty:|add:e']);
  });

  it('starts a new pair when a removal follows additions', () => {
    const rows = sideBySide([
      { type: 'add', content: 'x' },
      { type: 'del', content: 'y' },
    ]);
    expect(rows.map((r) => `${r.left.kind}|${r.right.kind}`)).toEqual(['empty|add', 'del|empty']);
  });
});
