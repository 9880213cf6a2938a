import { Type, type Static } from 'typebox';
import { Nullable } from '../../http/schemas.js';

/** The ZIP a staging directory was extracted from. */
export const StagingOrigin = Type.Object({
  /** The uploaded file's own name (e.g. `site.zip`). */
  filename: Type.String({ maxLength: 255 }),
  /** The ZIP's size in bytes (not the extracted size). */
  size: Type.Integer({ minimum: 0 }),
  uploaded_at: Type.String({ maxLength: 40 }),
  /** Files the ZIP held (directories not counted); absent in records written before it was kept. */
  file_count: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** A staging directory a push can use as its source (a ZIP upload, or one an operator filled). */
export const StagingDir = Type.Object({
  path: Type.String(),
  name: Type.String(),
  modified: Type.String(),
  /** Entries directly inside it (files and directories). */
  entries: Type.Integer(),
  /** The ZIP it came from; null for a directory made some other way. */
  zip: Nullable(StagingOrigin),
});

export const StagingDirList = Type.Object({ items: Type.Array(StagingDir), truncated: Type.Boolean() });

/** What the console shows before an operator picks a file: the service's own limits, in bytes or counts. */
export const SyncLimits = Type.Object({
  /** Largest ZIP upload accepted. */
  zip_max_bytes: Type.Integer(),
  /** Total bytes a ZIP may inflate to (the zip-bomb guard). */
  zip_max_uncompressed: Type.Integer(),
  /** Most entries a ZIP may hold. */
  zip_max_entries: Type.Integer(),
  /** File names listed in an upload's answer; the rest are counted. */
  zip_listing_max: Type.Integer(),
  /** Largest single file uploaded to a server over SFTP. */
  upload_max_bytes: Type.Integer(),
});

/**
 * Bulk delete of whole staging directories: either by name (as listed by staging-dirs) or every
 * directory older than a number of days (by the ZIP's arrival, else the directory's mtime). Exactly one.
 */
export const StagingBulkDeleteBody = Type.Object({
  names: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 500 })),
  older_than_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 36_500 })),
});

export const StagingBulkDeleteResult = Type.Object({
  /** Full paths of the directories removed (with their origin records). */
  deleted: Type.Array(Type.String()),
  /** Names asked for that were not (or no longer) staging directories; nothing was done to them. */
  missing: Type.Array(Type.String()),
});

export type StagingBulkDeleteBody = Static<typeof StagingBulkDeleteBody>;
export type StagingBulkDeleteResult = Static<typeof StagingBulkDeleteResult>;
export type StagingOrigin = Static<typeof StagingOrigin>;
export type StagingDir = Static<typeof StagingDir>;
export type StagingDirList = Static<typeof StagingDirList>;
export type SyncLimits = Static<typeof SyncLimits>;
