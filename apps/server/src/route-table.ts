import { routeContracts as undefinedRouteContracts } from './http/route-contracts.ts';
import { ownerRoutePermissions as undefinedRoutePermissions } from './http/owner-route-permissions.ts';
import type { RouteContract } from './http/route-contract.ts';
import { contractOf, routeKeyOf, type RouteDefinition } from './http/route-definition.ts';
import type { RoutePermission } from './http/route-permission.ts';
import { planRoutes } from './modules/plans/index.ts';

/**
 * Every route defined beside its module. The composition root registers each module's list
 * in its scope; the tables below are derived from them for what needs the whole API at once
 * (the OpenAPI document, the answer checks, the management API's rules, the test suites).
 */
export const routeDefinitions: readonly RouteDefinition[] = [...planRoutes];

/** Every route's contract by `METHOD /path`: the definitions', and the routes not yet defined. */
export const routeContracts: Readonly<Record<string, RouteContract>> = {
  ...undefinedRouteContracts,
  ...Object.fromEntries(routeDefinitions.map((route) => [routeKeyOf(route), contractOf(route)])),
};

/** What each owner route needs of the signed-in account, by `METHOD /path`. */
export const routePermissions: Readonly<Record<string, RoutePermission>> = {
  ...undefinedRoutePermissions,
  ...Object.fromEntries(
    routeDefinitions.flatMap((route) =>
      route.permission === undefined ? [] : [[routeKeyOf(route), route.permission]],
    ),
  ),
};
