/**
 * CSV (RFC 4180) for exports that people open in spreadsheets. A text cell a spreadsheet would
 * read as a formula (starting with = + - @, or a tab or carriage return that hides one) gets a
 * leading `'`: exports hold text users typed (paths, names), and opening one must not run it.
 * Numbers are written as they are (a negative value stays `-3`).
 */
export type CsvValue = string | number | null | undefined;

/** One cell: neutralised when text could start a formula, quoted when it holds a separator or quote. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, with the CRLF that ends it. */
export function csvLine(cells: CsvValue[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
