/** A response schema's serializer as Fastify builds it by default (fast-json-stringify, through the compiler package the app uses). */
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type Build = (externalSchemas: unknown, options: unknown) => (route: object) => (data: unknown) => string;
const build = (SerializerSelector as unknown as () => Build)()({}, undefined);

export function schemaSerializer(schema: unknown): (data: unknown) => string {
  return build({ schema, method: 'GET', url: '/', httpStatus: '200' });
}
