/**
 * TypeBox's value module (`Value.Check`, `Value.Errors`), imported where a check runs rather than
 * at start: it costs ~7.5 MB resident in every process, and its users (a channel save or first
 * send, a staging origin read, a backup restore) are occasional. The import is kept, so later
 * calls do not resolve the specifier again through the module loader.
 */
let value: Promise<typeof import('typebox/value')> | null = null;

export function loadTypeboxValue(): Promise<typeof import('typebox/value')> {
  value ??= import('typebox/value');
  // A failed import (never expected) is tried again by the next call rather than kept.
  value.catch(() => {
    value = null;
  });
  return value;
}
