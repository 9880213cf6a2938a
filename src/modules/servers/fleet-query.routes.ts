import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FleetQueryService } from './fleet-query.service.js';
import { FleetIds, FleetIdsQuery, FleetPage, FleetPageQuery, StatusCounts, TagCount } from './fleet-query.schemas.js';

/** Read-only views of the fleet under /api/servers; static paths, so they never read as an `{id}`. */
export const fleetQueryRoutes: FastifyPluginAsyncTypebox<{ fleet: FleetQueryService }> = async (app, { fleet }) => {
  const tags = ['servers'];

  app.get(
    '/search',
    {
      schema: {
        tags,
        description: 'One page of servers: search by name or host, filter by tag and status, sort. Total included.',
        querystring: FleetPageQuery,
        response: { 200: FleetPage },
      },
    },
    async (req) => fleet.page(req.query),
  );

  app.get(
    '/ids',
    {
      schema: { tags, description: 'Every server id matching a filter (at most 50,000), for selecting them all.', querystring: FleetIdsQuery, response: { 200: FleetIds } },
    },
    async (req) => fleet.ids(req.query),
  );

  app.get(
    '/tags',
    { schema: { tags, description: 'Every tag in use and how many servers carry it.', response: { 200: Type.Array(TagCount) } } },
    async () => fleet.tags(),
  );

  app.get(
    '/status-counts',
    { schema: { tags, description: 'Servers by agent status (online, offline, unknown = no agent) and by SSH reachability (reachable, failing, never contacted).', response: { 200: StatusCounts } } },
    async () => fleet.statusCounts(),
  );
};
