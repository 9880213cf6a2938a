/**
 * Turns the service's unified diff lines (computed on the server with the `diff` library) into
 * side-by-side rows: context on both sides, a run of removals paired line by line with the run
 * of additions that follows it, and the rest of the longer run against empty cells.
 */
import type { DiffLine } from '@server/modules/remote/remote.schemas';

export interface Cell {
  text: string;
  kind: 'ctx' | 'del' | 'add' | 'empty';
}
export interface SideRow {
  left: Cell;
  right: Cell;
  /** A hunk header (`@@ … @@`) spanning both sides. */
  header?: string;
}

const EMPTY: Cell = { text: '', kind: 'empty' };

export function sideBySide(lines: DiffLine[]): SideRow[] {
  const rows: SideRow[] = [];
  let dels: string[] = [];
  let adds: string[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
      rows.push({
        left: i < dels.length ? { text: dels[i], kind: 'del' } : EMPTY,
        right: i < adds.length ? { text: adds[i], kind: 'add' } : EMPTY,
      });
    }
    dels = [];
    adds = [];
  };
  for (const l of lines) {
    if (l.type === 'del') {
      if (adds.length > 0) flush();
      dels.push(l.content);
    } else if (l.type === 'add') adds.push(l.content);
    else {
      flush();
      if (l.type === 'header') rows.push({ left: EMPTY, right: EMPTY, header: l.content });
      else rows.push({ left: { text: l.content, kind: 'ctx' }, right: { text: l.content, kind: 'ctx' } });
    }
  }
  flush();
  return rows;
}
