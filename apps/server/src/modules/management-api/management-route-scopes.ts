import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { parseInput } from '../../http/parse-input.ts';
import { registerRoutes, routeKeyOf, type RouteDefinition } from '../../http/route-definition.ts';
import { assertAccountWide, assertApplicationReachable } from './reachable-applications.ts';

type ManagementDefinitions<Services> = readonly RouteDefinition<
  z.ZodObject | undefined,
  z.ZodObject | undefined,
  z.ZodType | undefined,
  Services
>[];

/**
 * Routes under /applications/:id, registered in a scope of their own that checks the token
 * reaches the application the path names once the path parses, before the query or the body
 * is read: an application out of reach is the same 404 as a missing one, whatever else the
 * request says. `prepare` readies the scope first (an upload's body parser).
 */
export function registerApplicationRoutes<Services>(
  scope: FastifyInstance,
  definitions: ManagementDefinitions<Services>,
  services: Services,
  prepare?: (scope: FastifyInstance) => void,
): void {
  for (const definition of definitions) {
    if (!definition.params) throw new Error(`${routeKeyOf(definition)} names no application`);
  }
  void scope.register(async (reaching) => {
    prepare?.(reaching);
    reaching.addHook('preHandler', async (request) => {
      const { params } = request.routeOptions.config.definition!;
      const { id } = parseInput(params!, request.params) as { id: number };
      assertApplicationReachable(request.management!, id);
    });
    registerRoutes(reaching, definitions, services);
  });
}

/**
 * The blacklist's and the webhooks' routes, registered in a scope of their own that refuses a
 * token restricted to some applications before anything of the request is read.
 */
export function registerAccountWideRoutes<Services>(
  scope: FastifyInstance,
  definitions: ManagementDefinitions<Services>,
  services: Services,
): void {
  void scope.register(async (accountWide) => {
    accountWide.addHook('preHandler', async (request) => assertAccountWide(request.management!));
    registerRoutes(accountWide, definitions, services);
  });
}

/** A route's path parameters with `id` given as `applicationId`, the name the verbs take. */
export function applicationIdsOf<Params extends { id: number }>({
  id,
  ...rest
}: Params): Omit<Params, 'id'> & { applicationId: number } {
  return { ...rest, applicationId: id };
}
