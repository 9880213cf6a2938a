/** Tags across the fleet: rename one on every server carrying it, or remove it from all of them. */
import { Type, type Static } from 'typebox';

// Longer than a stored tag may be (64), so an overlong name is this module's 400 `tag_invalid`, not a 422.
const TagName = Type.String({ maxLength: 255 });

export const RenameTagBody = Type.Object({
  from: TagName,
  to: TagName,
  /**
   * When servers already carry `to`: false (default) refuses with 409 `tag_exists`; true merges
   * the two tags (a server carrying both keeps `to` once).
   */
  merge: Type.Optional(Type.Boolean()),
});

export const TagParams = Type.Object({ tag: TagName });

export const TagChangeResult = Type.Object({
  from: Type.String(),
  /** The new name; null for a removal. */
  to: Type.Union([Type.String(), Type.Null()]),
  /** Servers whose tags changed. */
  servers: Type.Integer(),
  /** Of those, servers that already carried `to` (merged); 0 for a removal. */
  merged: Type.Integer(),
});

export type RenameTagBody = Static<typeof RenameTagBody>;
export type TagChangeResult = Static<typeof TagChangeResult>;
