import type { FastifyInstance } from 'fastify';

/*
 * A route definition carries no Fastify route options, yet a sample or a reference document
 * may be larger than the server-wide body limit: each such definition is given its own limit
 * here, and the scope that registers it applies the limit as the route is added.
 */

const bodyLimits = new WeakMap<object, number>();

/** `definition`, to be registered with a body limit of `bodyLimit` bytes. */
export function withBodyLimit<Definition extends object>(
  bodyLimit: number,
  definition: Definition,
): Definition {
  bodyLimits.set(definition, bodyLimit);
  return definition;
}

/** Gives each route registered in `scope` from now on the body limit its definition was given. */
export function applyBodyLimits(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    const definition = route.config?.definition;
    const bodyLimit = definition === undefined ? undefined : bodyLimits.get(definition);
    if (bodyLimit !== undefined) route.bodyLimit = bodyLimit;
  });
}
