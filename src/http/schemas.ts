/**
 * Schema pieces every module's routes share. A response or body type is always
 * `Static<typeof Schema>` of the schema that validates it, so the console (which imports these
 * types) stops compiling when the API changes, instead of failing in a user's browser.
 */
import { Type, type Static, type TSchema } from 'typebox';

/**
 * Every error answer: `{ detail, code }` (a 422 adds `errors`, see the error handler). `code` is
 * one of the catalogue's (`core/error-codes.ts`); it is typed as a string here so that a client
 * built against an older catalogue still reads a newer code (and falls back to `detail`).
 */
export const ErrorResponse = Type.Object({ detail: Type.String(), code: Type.String() });

/** A 422: the first problem in `detail`, and each field's problem in `errors` (paths like `body.name`). */
export const ValidationErrorResponse = Type.Object({
  detail: Type.String(),
  code: Type.String(),
  errors: Type.Array(Type.Object({ path: Type.String(), message: Type.String() })),
});

/** `T | null`. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/*
 * Strings need no NUL pattern: the input guard (http/input-guard.ts) refuses a NUL character in
 * every param, query value and JSON string of every route, so no schema can forget it.
 */

/** The largest id a stored row can have: ids are 32-bit integers on PostgreSQL (SQLite's are larger). */
export const ID_MAX = 2_147_483_647;

/**
 * The id of a stored row, wherever a client sends one (path, query, body, a list of ids): a
 * larger one is a 422 on both databases instead of a PostgreSQL range error. Every input id uses
 * this one schema; response ids may stay plain integers.
 */
export const Id = Type.Integer({ minimum: 1, maximum: ID_MAX });

/** `/:id` of a stored row. */
export const IdParams = Type.Object({ id: Id });

export type ErrorResponse = Static<typeof ErrorResponse>;
export type ValidationErrorResponse = Static<typeof ValidationErrorResponse>;
