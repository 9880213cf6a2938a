/**
 * Every feature module, registered by `buildApp` in this order. A module is a Fastify plugin that
 * receives the container; add new modules here with their URL prefix.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../container.js';
import { adminsRoutes } from './admins/admins.routes.js';
import { auditRoutes } from './audit/audit.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { eventsRoutes } from './events/events.routes.js';
import { healthRoutes } from './health/health.routes.js';

export interface ModuleRegistration {
  plugin: FastifyPluginAsync<{ c: Container }>;
  prefix: string;
}

export const modules: ModuleRegistration[] = [
  { plugin: healthRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '' },
  { plugin: authRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/auth' },
  { plugin: adminsRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/admins' },
  { plugin: auditRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/audit' },
  { plugin: eventsRoutes, prefix: '' },
];
