import { Type, type Static } from 'typebox';
import { Id, Nullable } from '../../http/schemas.js';
import { ServerIds } from '../push/push.schemas.js';


export const SCRIPT_MAX_CHARS = 100_000;
export const ScriptContent = Type.String({ minLength: 1, maxLength: SCRIPT_MAX_CHARS });
const ScriptName = Type.String({ minLength: 1, maxLength: 200 });
export const ScriptId = Id;

export const ScriptView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  content: Type.String(),
  created_at: Type.String(),
});

export const CreateScriptBody = Type.Object({ name: ScriptName, content: ScriptContent });
export const UpdateScriptBody = Type.Object({ name: Type.Optional(ScriptName), content: Type.Optional(ScriptContent) });

export const RunScriptBody = Type.Object({
  server_ids: ServerIds,
  script_id: Type.Optional(Nullable(ScriptId)),
  script_content: Type.Optional(Nullable(ScriptContent)),
  timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
});

export const ScriptRunResultView = Type.Object({
  server_id: Type.Integer(),
  server_name: Nullable(Type.String()),
  exit_code: Nullable(Type.Integer()),
  stdout: Type.String(),
  stderr: Type.String(),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
});

export const ScriptRunView = Type.Object({ run_id: Type.String(), results: Type.Array(ScriptRunResultView) });
export type ScriptView = Static<typeof ScriptView>;
export type CreateScriptBody = Static<typeof CreateScriptBody>;
export type UpdateScriptBody = Static<typeof UpdateScriptBody>;
export type RunScriptBody = Static<typeof RunScriptBody>;
export type ScriptRunResultView = Static<typeof ScriptRunResultView>;
export type ScriptRunView = Static<typeof ScriptRunView>;
