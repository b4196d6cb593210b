import type { ApiTokenScope } from '@latchkey/contracts';
import type { RouteContract } from '../../http/route-contract.ts';
import type { RoutePermission } from '../../http/route-permission.ts';

export interface ManagementRouteRule {
  scope: ApiTokenScope;
  permission: RoutePermission;
}

/** The whole API's routes by `METHOD /path`, as the composition root derives them. */
export interface RouteTable {
  contracts: Readonly<Record<string, RouteContract>>;
  permissions: Readonly<Record<string, RoutePermission>>;
}

/**
 * What the route a request matched needs (HEAD is served by its GET route): the token scope
 * its contract declares, and the permission of the console route it mirrors (`sameAs`), looked
 * up in the route table so no rule is written twice. Undefined for a route that declares none:
 * the guard then refuses (fail closed).
 */
export function managementRuleOf(
  table: RouteTable,
  method: string,
  url: string,
): ManagementRouteRule | undefined {
  const key = `${method === 'HEAD' ? 'GET' : method} ${url}`;
  const declared = Object.hasOwn(table.contracts, key)
    ? table.contracts[key]?.management
    : undefined;
  if (!declared) return undefined;
  const permission = Object.hasOwn(table.permissions, declared.sameAs)
    ? table.permissions[declared.sameAs]
    : undefined;
  if (permission === undefined) throw new Error(`${key}: ${declared.sameAs} is not an owner route`);
  return { scope: declared.scope, permission };
}
