import { Type, type Static } from 'typebox';

/** A staging directory a push can use as its source (a ZIP upload, or one an operator filled). */
export const StagingDir = Type.Object({
  path: Type.String(),
  name: Type.String(),
  modified: Type.String(),
  /** Entries directly inside it (files and directories). */
  entries: Type.Integer(),
});

export const StagingDirList = Type.Object({ items: Type.Array(StagingDir), truncated: Type.Boolean() });

export type StagingDir = Static<typeof StagingDir>;
export type StagingDirList = Static<typeof StagingDirList>;
