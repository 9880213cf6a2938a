import { Type, type Static } from 'typebox';

export { ErrorResponse } from '../../http/schemas.js';

/** Linux PATH_MAX; longer input could never name a file. */
const PathString = Type.String({ maxLength: 4096 });

export const PathBody = Type.Object({ path: PathString });

export const FileOpBody = Type.Object({
  path: PathString,
  // A plain string, not an enum: an unknown operation is a 400 like the remote file-ops, not a 422.
  operation: Type.String({ maxLength: 40 }),
  new_name: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
});

export const LocalEntry = Type.Object({ name: Type.String(), is_dir: Type.Boolean(), size: Type.Integer() });

export const BrowseLocalResponse = Type.Object({
  path: Type.String(),
  entries: Type.Array(LocalEntry),
});

export const FileOpResponse = Type.Object({
  success: Type.Boolean(),
  operation: Type.String(),
  path: Type.String(),
  new_name: Type.Optional(Type.String()),
  new_path: Type.Optional(Type.String()),
});

export const PreviewResponse = Type.Object({
  name: Type.String(),
  size: Type.Integer(),
  content_base64: Type.String(),
  truncated: Type.Boolean(),
  encoding_hint: Type.Union([Type.Literal('text'), Type.Literal('binary')]),
});

export const ValidateSourceResponse = Type.Object({
  valid: Type.Boolean(),
  is_dir: Type.Boolean(),
  path: Type.String(),
  file_count: Type.Integer(),
  size_bytes: Type.Integer(),
  file_count_truncated: Type.Boolean(),
});

export const UploadZipResponse = Type.Object({
  success: Type.Boolean(),
  source_path: Type.String(),
  file_count: Type.Integer(),
  files: Type.Array(Type.String()),
  files_truncated: Type.Boolean(),
  filename: Type.String(),
  size: Type.Integer(),
  name_encoding: Type.Union([Type.Literal('utf-8'), Type.Literal('gb18030'), Type.Literal('cp437')], {
    description:
      'How the entry names the archive does not mark as UTF-8 were read. Entries with the UTF-8 flag or a ' +
      'Unicode Path extra field (0x7075) whose CRC matches are always read as UTF-8. With the setting ' +
      '`zip_name_encoding` at `auto` (the default) one encoding is chosen per archive: `utf-8` when every ' +
      'unmarked name is valid UTF-8 (Info-ZIP on Linux, macOS), else `gb18030` when every one decodes as ' +
      'GB18030/GBK (Chinese Windows tools), else `cp437`. A fixed setting (`gbk`, `cp437`, `utf-8`) is used as is.',
  }),
});
export type PathBody = Static<typeof PathBody>;
export type FileOpBody = Static<typeof FileOpBody>;
export type LocalEntry = Static<typeof LocalEntry>;
export type BrowseLocalResponse = Static<typeof BrowseLocalResponse>;
export type FileOpResponse = Static<typeof FileOpResponse>;
export type PreviewResponse = Static<typeof PreviewResponse>;
export type ValidateSourceResponse = Static<typeof ValidateSourceResponse>;
export type UploadZipResponse = Static<typeof UploadZipResponse>;
