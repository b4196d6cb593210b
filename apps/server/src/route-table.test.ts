import { describe, expect, it } from 'vitest';
import { routeContracts as referenceRouteContracts } from './http/route-contracts.ts';
import { routeKeyOf } from './http/route-definition.ts';
import { clientCalls } from './modules/client-api/index.ts';
import { routeDefinitions } from './route-table.ts';

describe('the route table', () => {
  const keys = [
    ...routeDefinitions.map(routeKeyOf),
    ...clientCalls.map((call) => `${call.method} ${call.url}`),
  ];

  it('defines each route once', () => {
    const twice = keys.filter((key, index) => keys.indexOf(key) !== index);
    expect(twice).toEqual([]);
    expect(keys.filter((key) => Object.hasOwn(referenceRouteContracts, key))).toEqual([]);
  });

  it('gives every owner route a permission and no other route one', () => {
    const owners = routeDefinitions.filter((route) => route.caller === 'owner');
    expect(owners.length).toBeGreaterThan(60);
    expect(owners.filter((route) => route.permission === undefined).map(routeKeyOf)).toEqual([]);
    const others = routeDefinitions.filter((route) => route.caller !== 'owner');
    expect(others.filter((route) => route.permission !== undefined).map(routeKeyOf)).toEqual([]);
  });

  it('gives every management route a scope and a console twin that is an owner route', () => {
    const management = routeDefinitions.filter((route) => route.caller === 'manage');
    expect(management.length).toBeGreaterThan(30);
    for (const route of management) {
      const twin = routeDefinitions.find(
        (candidate) => routeKeyOf(candidate) === route.management?.sameAs,
      );
      expect(twin?.caller, routeKeyOf(route)).toBe('owner');
    }
  });
});
