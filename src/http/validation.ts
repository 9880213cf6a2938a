/**
 * Two validators: querystring, params and headers arrive as strings, so they are coerced to the
 * schema's types (`?limit=10`); a JSON body is taken as sent, so a wrong type is the 422 the
 * contract asks for (`{"name": 123}` is not a name, `"1"` is not a list of server ids).
 * Both remove unlisted properties and apply defaults, like Fastify's own default.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';

const common = { removeAdditional: true, useDefaults: true, allErrors: true } as const;

export function installValidation(app: FastifyInstance): void {
  const factory = AjvCompiler();
  const coercing = factory({}, { customOptions: { ...common, coerceTypes: 'array' } });
  const strict = factory({}, { customOptions: { ...common, coerceTypes: false } });
  const compiler: FastifySchemaCompiler<unknown> = (route) => (route.httpPart === 'body' ? strict : coercing)(route);
  app.setValidatorCompiler(compiler);
}
