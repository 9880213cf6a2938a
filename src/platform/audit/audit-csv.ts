/**
 * The audit log as CSV (RFC 4180), for spreadsheets. A cell a spreadsheet would read as a
 * formula (starting with = + - @, or a tab or carriage return that hides one) gets a leading `'`:
 * an audit detail holds text a user typed (paths, names), and opening the export must not run it.
 */
import type { AuditItem } from './audit.schemas.js';

export const AUDIT_CSV_COLUMNS = [
  'id', 'created_at', 'admin_username', 'action', 'target_type', 'target_id', 'target_name', 'detail', 'ip_address',
] as const;

/** One cell: neutralised when it could start a formula, quoted when it holds a separator or quote. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function auditCsvRow(item: AuditItem): string {
  return csvLine(AUDIT_CSV_COLUMNS.map((c) => item[c] ?? null));
}
