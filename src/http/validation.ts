/**
 * Two validators: querystring, params and headers arrive as strings, so they are coerced to the
 * schema's types (`?limit=10`); a JSON body is taken as sent, so a wrong type is the 422 the
 * contract asks for (`{"name": 123}` is not a name, `"1"` is not a list of server ids).
 * Both remove unlisted properties and apply defaults, like Fastify's own default.
 *
 * Every request is validated with Ajv's default (stop at the first error): `allErrors` would let
 * one crafted request make validation do unbounded work. Only a request that already failed, and
 * is small, is validated once more to report every field's message; a large one reports the first.
 *
 * Validators and response serializers are compiled on a route's first request, not at start:
 * compiling ~150 routes' schemas up front held ~10 MB of generated code in every idle process,
 * most of it for routes an instance may never see. The same compilers with the same options run,
 * so every check is exactly as strict; only the moment of compilation moves.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance, FastifySchemaCompiler, FastifySchemaValidationError, FastifySerializerCompiler } from 'fastify';
import { nullableAsTypeList } from './response-schema.js';

const common = { removeAdditional: true, useDefaults: true } as const;
/** Values (objects, arrays, scalars) a failed request may have for its every-field report. */
const REPORT_BUDGET = 2000;
/** At most this many field messages in one 422. */
const MAX_REPORTED = 20;

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/** True when `value` has at most `budget` nodes; stops counting as soon as it is over. */
export function withinBudget(value: unknown, budget: number): boolean {
  let left = budget;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    if (--left < 0) return false;
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v.slice(0, left + 1));
    else if (v !== null && typeof v === 'object') stack.push(...Object.values(v).slice(0, left + 1));
  }
  return true;
}

/** `compile()` run on the first call of the returned function, whose calls it then serves. */
export function compileOnFirstCall<A extends unknown[], R>(compile: () => (...args: A) => R): (...args: A) => R {
  let compiled: ((...args: A) => R) | null = null;
  return (...args) => {
    compiled ??= compile();
    return compiled(...args);
  };
}

type SerializerBuilder = (externalSchemas: unknown, options: unknown) => FastifySerializerCompiler<unknown>;

/**
 * Response serializers: Fastify's own default (fast-json-stringify through the same compiler
 * package Fastify uses, declared as our dependency in the range Fastify asks for, with its
 * default options; the app adds no shared schemas), compiled on first use, from the schema with
 * its nullable scalars as type lists (see response-schema.ts).
 */
export function installSerialization(app: FastifyInstance): void {
  const compile = (SerializerSelector as unknown as () => SerializerBuilder)()({}, undefined);
  app.setSerializerCompiler((route) => compileOnFirstCall(() => compile({ ...route, schema: nullableAsTypeList(route.schema) })));
}

export function installValidation(app: FastifyInstance): void {
  const factory = AjvCompiler();
  const make = (coerceTypes: false | 'array', allErrors: boolean) =>
    factory({}, { customOptions: { ...common, coerceTypes, allErrors } });
  const firstError = { coercing: make('array', false), strict: make(false, false) };
  const everyError = { coercing: make('array', true), strict: make(false, true) };

  const compiler: FastifySchemaCompiler<unknown> = (route) => {
    const kind = route.httpPart === 'body' ? 'strict' : 'coercing';
    let fast: Validate | null = null;
    let full: Validate | null = null;
    const validate: Validate = (data) => {
      fast ??= firstError[kind](route) as Validate;
      if (fast(data)) return true;
      validate.errors = fast.errors;
      if (withinBudget(data, REPORT_BUDGET)) {
        full ??= everyError[kind](route) as Validate;
        if (!full(data)) validate.errors = (full.errors ?? fast.errors ?? []).slice(0, MAX_REPORTED);
      }
      return false;
    };
    return validate;
  };
  app.setValidatorCompiler(compiler);
}
