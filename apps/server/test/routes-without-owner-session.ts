import type { RouteOptions } from 'fastify';
import { routeContracts } from '../src/route-table.ts';

/**
 * Every `METHOD /path` that no owner session guards: each route whose contract names another
 * caller (public ones such as the health check and a shop's signed events, the client API,
 * the portal, the management API, KeyAuth's paths; each proves its own credential in its own
 * tests). The owner-route tests take every other registered /api route as an owner route, so
 * a new route is covered the moment it is defined.
 */
export const routesWithoutOwnerSession: ReadonlySet<string> = new Set(
  Object.entries(routeContracts)
    .filter(([, contract]) => contract.caller !== 'owner')
    .map(([route]) => route),
);

/** Collects `METHOD /path` of each /api route registered (HEAD left out), for createTestApp. */
export function collectApiRoutes(into: Set<string>) {
  return (route: RouteOptions) => {
    if (!route.url.startsWith('/api')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') into.add(`${method} ${route.url}`);
  };
}
