/**
 * The alert history as CSV, with exactly the list's filters, streamed in keyset pages so an
 * export of a million rows never holds more than one page in memory; cells are formula-safe
 * (see core/csv).
 */
import { csvLine } from '../../core/csv.js';
import { SHANGHAI_OFFSET_MS } from '../../core/time.js';
import type { AlertRow } from '../../db/types.js';
import type { AlertFilter, AlertLogRepository } from './alert-log.repository.js';

const PAGE = 1000;
export const CSV_HEADER = ['id', 'server_id', 'server_name', 'alert_type', 'value', 'is_recovery', 'created_at', 'created_at_shanghai'];

function shanghaiTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  return new Date(ms + SHANGHAI_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

export async function* alertCsv(
  repo: Pick<AlertLogRepository, 'listAfter' | 'serverNames'>,
  f: AlertFilter,
): AsyncGenerator<string> {
  // A BOM so spreadsheet programs read UTF-8 (Chinese server names) correctly.
  yield `\uFEFF${CSV_HEADER.join(',')}\r\n`;
  let cursor: { created_at: string; id: number } | undefined;
  for (;;) {
    const rows: AlertRow[] = await repo.listAfter(f, cursor, PAGE);
    if (rows.length === 0) return;
    const unnamed = [...new Set(rows.filter((r) => !r.server_name).map((r) => r.server_id))];
    const names = await repo.serverNames(unnamed);
    let out = '';
    for (const r of rows) {
      const name = r.server_name || names.get(r.server_id) || `#${r.server_id}`;
      out += csvLine([
        Number(r.id),
        Number(r.server_id),
        name,
        r.alert_type,
        r.value === null ? null : Number(r.value),
        Number(r.is_recovery) === 1 ? 'true' : 'false',
        r.created_at,
        shanghaiTime(r.created_at),
      ]);
    }
    yield out;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1];
    cursor = { created_at: last.created_at, id: Number(last.id) };
  }
}
