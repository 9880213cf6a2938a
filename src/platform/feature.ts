/**
 * What the composition root knows of a feature: the routes it mounts and the work it starts and
 * stops. A feature's `index.ts` builds its services from explicit dependencies and returns this;
 * route plugins receive only their own services, never the whole graph.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';

export interface RouteMount {
  prefix: string;
  // biome-ignore lint/suspicious/noExplicitAny: plugins differ in their options; `mount` checks each pair
  plugin: FastifyPluginAsyncTypebox<any> | FastifyPluginAsync<any>;
  options: object;
}

/** A route plugin with the services it is given; the options are checked against the plugin's type. */
export function mount<O extends object>(
  prefix: string,
  plugin: FastifyPluginAsyncTypebox<O> | FastifyPluginAsync<O>,
  options: O,
): RouteMount {
  return { prefix, plugin, options };
}

export interface Lifecycle {
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export interface Feature {
  name: string;
  routes?: RouteMount[];
  /** Runs in every process: subscriptions, in-memory buffers, anything a request path needs. */
  perProcess?: Lifecycle;
  /**
   * Runs once at the start of a process that owns background work (see `ProcessRole`), whether or
   * not the periodic loops are switched on: recovery of what an earlier process left behind.
   */
  onBoot?: () => Promise<void>;
  /** Periodic work (loops, sweeps): only in a process that owns background work. */
  background?: Lifecycle;
}
