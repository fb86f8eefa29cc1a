// Mark a plugin as not encapsulated (what fastify-plugin does), so its hooks apply app-wide.
import type { FastifyPluginAsync } from 'fastify';

export default function fp<T extends Record<string, unknown>>(plugin: FastifyPluginAsync<T>): FastifyPluginAsync<T> {
  const p = plugin as FastifyPluginAsync<T> & Record<symbol, unknown>;
  p[Symbol.for('skip-override')] = true;
  return p;
}
