import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { pingDatabase } from '../../db/database.js';

const Status = Type.Union([Type.Literal('ok'), Type.Literal('error')]);

async function probe(fn: () => Promise<unknown>): Promise<'ok' | 'error'> {
  try {
    await Promise.race([fn(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref())]);
    return 'ok';
  } catch {
    return 'error';
  }
}

export const healthRoutes: FastifyPluginAsyncTypebox<{ c: Container }> = async (app, { c }) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        response: {
          200: Type.Object({ status: Type.Literal('ok'), db: Status, cache: Status, version: Type.String() }),
        },
      },
    },
    async (_req, reply) => {
      // Lets an operator (and the cluster test) see which worker answered.
      reply.header('x-worker-pid', String(process.pid));
      const [db, cache] = await Promise.all([probe(() => pingDatabase(c.db)), probe(() => c.cache.ping())]);
      return { status: 'ok' as const, db, cache, version: c.config.version };
    },
  );
};
