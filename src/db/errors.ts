/** Unique-constraint (or primary-key) violations on either dialect (the name check can race a concurrent insert). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * A value the database refused to store or compare, as opposed to a fault of the database or
 * the query: PostgreSQL's numeric value out of range (22003), invalid text representation
 * (22P02), invalid byte sequence such as a NUL in text (22021), untranslatable character
 * (22P05) and program limit exceeded such as an index row too large (54000); SQLite's string or
 * blob too big and datatype mismatch. Schemas and the input guard refuse such input first; this
 * is the last line of defence, answered 400 instead of 500.
 */
const VALUE_REJECTED = new Set(['22003', '22P02', '22021', '22P05', '54000', 'SQLITE_TOOBIG', 'SQLITE_MISMATCH']);

export function isValueRejected(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && VALUE_REJECTED.has(code);
}
