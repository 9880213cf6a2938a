/** The audit log as CSV for spreadsheets (formula-safe cells: see core/csv). */
import { csvLine } from '../../core/csv.js';
import type { AuditItem } from './audit.schemas.js';


export const AUDIT_CSV_COLUMNS = [
  'id', 'created_at', 'admin_username', 'action', 'target_type', 'target_id', 'target_name', 'detail', 'ip_address',
] as const;

export function auditCsvRow(item: AuditItem): string {
  return csvLine(AUDIT_CSV_COLUMNS.map((c) => item[c] ?? null));
}
