import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { permissionSchema, roleSchema, type Permission, type Role } from '@latchkey/contracts';
import { ownerAccounts } from '../db/schema/index.ts';
import {
  createTestApp,
  signInOwner,
  type SignedInOwner,
  type TestApp,
} from '../../test/test-app.ts';
import {
  collectApiRoutes,
  routesWithoutOwnerSession,
} from '../../test/routes-without-owner-session.ts';
import { routePermissions as ownerRoutePermissions } from '../route-table.ts';

/**
 * The permission matrix, generated from the permission table rather than written by hand:
 * every owner route x every role, with and without the permission it requires. Ids are
 * ones that do not exist, so an allowed request ends in the verb (404/400/2xx) and a refused
 * one in the guard (403 naming the permission): the status tells the two apart.
 */
describe('every owner route requires its declared permission', () => {
  let testApp: TestApp;
  let siteOwner: SignedInOwner;
  let subject: SignedInOwner;
  const registered = new Set<string>();

  beforeAll(async () => {
    testApp = await createTestApp({ onRoute: collectApiRoutes(registered) });
    siteOwner = await signInOwner(testApp.app);
    subject = await signInOwner(testApp.app);
  });
  afterAll(() => testApp.close());

  it('declares a permission for every registered owner route, and only for registered ones', () => {
    const ownerRoutes = [...registered].filter((key) => !routesWithoutOwnerSession.has(key));
    expect(ownerRoutes.length).toBeGreaterThan(30);
    expect(ownerRoutes.filter((key) => !(key in ownerRoutePermissions)).sort()).toEqual([]);
    expect(Object.keys(ownerRoutePermissions).filter((key) => !registered.has(key))).toEqual([]);
  });

  const setSubject = async (role: Role, permissions: Permission[]) => {
    await testApp.database.db
      .update(ownerAccounts)
      .set({ role, permissions })
      .where(eq(ownerAccounts.id, subject.accountId));
  };

  const call = (key: string) => {
    const [method, path] = key.split(' ') as [string, string];
    const url = path
      .replace(':id/samples', '2000000000/samples')
      .replace('/users/:id', `/users/${randomUUID()}`)
      .replace(':id', '2000000000')
      .replace(':appId', '2000000000')
      .replace(':userId', randomUUID())
      .replace(':planId', randomUUID())
      .replace(':entryId', '2000000000')
      .replace(':deliveryId', randomUUID())
      .replace(':language', 'csharp');
    const hasBody = method !== 'GET' && method !== 'DELETE';
    return testApp.app.inject({
      method,
      url,
      headers: subject.headers,
      ...(hasBody ? { payload: {} } : {}),
    } as InjectOptions);
  };

  const entries = Object.entries(ownerRoutePermissions);
  const lesserRoles = roleSchema.options.filter((role) => role !== 'owner');

  it.each(entries)('%s: allowed or refused by role and permission', async (key, required) => {
    const needed: readonly Permission[] =
      required === 'signed_in' ? [] : typeof required === 'string' ? [required] : required;
    for (const role of lesserRoles) {
      const others = permissionSchema.options.filter((permission) => !needed.includes(permission));
      await setSubject(role, others);
      const without = await call(key);
      if (needed.length === 0) {
        expect(without.statusCode, `${role} ${without.body}`).not.toBe(403);
      } else {
        expect(without.statusCode, `${role} without ${needed.join('|')}`).toBe(403);
        expect(without.json()).toMatchObject({ code: 'FORBIDDEN' });
        expect(without.json().message).toMatch(/^You need the ".+" permission/);
      }
      for (const permission of needed) {
        await setSubject(role, [permission]);
        const granted = await call(key);
        expect(granted.statusCode, `${role} with ${permission}: ${granted.body}`).not.toBe(403);
      }
    }
    await setSubject('owner', []);
    const asOwner = await call(key);
    expect(asOwner.statusCode, `owner: ${asOwner.body}`).not.toBe(403);
    await setSubject('user', []);
  });

  it('leaves the site owner able to do everything (sanity: the owner is not the subject)', async () => {
    const response = await testApp.app.inject({
      url: '/api/admin/users',
      headers: siteOwner.headers,
    });
    expect(response.statusCode).toBe(200);
  });
});
