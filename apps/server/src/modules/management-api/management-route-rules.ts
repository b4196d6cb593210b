import type { ApiTokenScope } from '@latchkey/contracts';
import { ownerRoutePermissions } from '../../http/owner-route-permissions.ts';
import { routeContracts } from '../../http/route-contracts.ts';
import type { RoutePermission } from '../../http/route-permission.ts';

export interface ManagementRouteRule {
  scope: ApiTokenScope;
  permission: RoutePermission;
}

/**
 * What the route a request matched needs (HEAD is served by its GET route): the token scope
 * its contract declares (management-route-contracts.ts), and the permission of the console
 * route it mirrors, looked up in owner-route-permissions.ts so no rule is written twice.
 * Undefined for a route that declares none: the guard then refuses (fail closed).
 */
export function managementRuleOf(method: string, url: string): ManagementRouteRule | undefined {
  const key = `${method === 'HEAD' ? 'GET' : method} ${url}`;
  const declared = Object.hasOwn(routeContracts, key) ? routeContracts[key]?.management : undefined;
  if (!declared) return undefined;
  const permission = ownerRoutePermissions[declared.sameAs];
  if (permission === undefined) throw new Error(`${key}: ${declared.sameAs} is not an owner route`);
  return { scope: declared.scope, permission };
}
