import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Permission, Role } from '@latchkey/contracts';
import {
  activityLogs,
  applications,
  appUsers,
  blacklistEntries,
  integrationSamples,
  ownerAccounts,
  webhooks,
} from '../../db/schema/index.ts';
import {
  createApplicationViaApi,
  createAppUserViaApi,
  createWebhookViaApi,
  insertActivityLog,
  insertBlacklistEntry,
} from '../../../test/factories.ts';
import { newGoogleAccount } from '../../../test/emulator-accounts.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner, type SignedInOwner } from '../../../test/test-app.ts';

describe('site administration', () => {
  const testApp = startTestAppForSuite();
  const siteOwner = signInOwnerForSuite(testApp, {
    account: newGoogleAccount('Site Owner'),
  });

  const setAccount = (who: SignedInOwner, role: Role, permissions: Permission[]) =>
    testApp.database.db
      .update(ownerAccounts)
      .set({ role, permissions })
      .where(eq(ownerAccounts.id, who.accountId));

  const patch = (actor: SignedInOwner, target: SignedInOwner | string, body: object) =>
    testApp.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${typeof target === 'string' ? target : target.accountId}`,
      headers: actor.headers,
      payload: body,
    });
  const remove = (actor: SignedInOwner, target: SignedInOwner) =>
    testApp.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${target.accountId}`,
      headers: actor.headers,
    });
  const refusal = (message: string) => ({ message, code: 'FORBIDDEN' });

  it('lists accounts with a case-insensitive search over e-mail, first and last name, paged', async () => {
    const grace = await signInOwner(testApp.app, newGoogleAccount('Grace Hopperfield'));
    const byName = await testApp.app.inject({
      url: '/api/admin/users?search=HOPPERF&pageSize=5',
      headers: siteOwner.headers,
    });
    expect(byName.statusCode).toBe(200);
    expect(byName.headers['x-total-count']).toBe('1');
    expect(byName.json()).toEqual([
      expect.objectContaining({
        id: grace.accountId,
        email: grace.account.email,
        firstName: 'Grace',
        lastName: 'Hopperfield',
        role: 'user',
        permissions: ['manage_applications', 'delete_applications'],
        isActive: true,
      }),
    ]);
    const byEmail = await testApp.app.inject({
      url: `/api/admin/users?search=${encodeURIComponent(grace.account.email.toUpperCase())}`,
      headers: siteOwner.headers,
    });
    expect(byEmail.json().map((user: { id: string }) => user.id)).toEqual([grace.accountId]);
    const none = await testApp.app.inject({
      url: '/api/admin/users?search=%25_nobody',
      headers: siteOwner.headers,
    });
    expect(none.json()).toEqual([]);
  });

  it('saves role, permissions and the active flag together, and records it in the audit trail', async () => {
    const target = await signInOwner(testApp.app);
    const response = await patch(siteOwner, target, {
      role: 'moderator',
      permissions: ['edit_code', 'view_all_data'],
      isActive: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      role: 'moderator',
      permissions: ['edit_code', 'view_all_data'],
      isActive: true,
    });
    const profile = await testApp.app.inject({ url: '/api/auth/user', headers: target.headers });
    expect(profile.json().userPermissions).toEqual({
      role: 'moderator',
      permissions: ['edit_code', 'view_all_data'],
    });
    const audit = await testApp.app.inject({ url: '/api/admin/audit', headers: siteOwner.headers });
    expect(audit.statusCode).toBe(200);
    expect(audit.json()[0]).toMatchObject({
      actor: { id: siteOwner.accountId, email: siteOwner.account.email },
      action: 'user_updated',
      target: { id: target.accountId, email: target.account.email },
      before: {
        role: 'user',
        permissions: ['manage_applications', 'delete_applications'],
        isActive: true,
      },
      after: { role: 'moderator', permissions: ['edit_code', 'view_all_data'], isActive: true },
    });
    // The audit trail: owners and access_admin_panel only.
    expect(
      (await testApp.app.inject({ url: '/api/admin/audit', headers: target.headers })).statusCode,
    ).toBe(403);
    await setAccount(target, 'moderator', ['access_admin_panel']);
    expect(
      (await testApp.app.inject({ url: '/api/admin/audit', headers: target.headers })).statusCode,
    ).toBe(200);
  });

  it('answers 404 for an unknown account and 400 for a malformed id', async () => {
    const unknown = await patch(siteOwner, '00000000-0000-4000-8000-000000000000', {
      role: 'user',
      permissions: [],
      isActive: true,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'User not found', code: 'NOT_FOUND' });
    const malformed = await patch(siteOwner, 'not-a-uuid', {
      role: 'user',
      permissions: [],
      isActive: true,
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('lets only an owner edit an owner, and nobody delete an owner or themselves', async () => {
    const admin = await signInOwner(testApp.app);
    await setAccount(admin, 'admin', ['manage_users', 'manage_permissions']);
    const edit = await patch(admin, siteOwner, {
      role: 'owner',
      permissions: [],
      isActive: false,
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toEqual(refusal('Only a site owner can change an owner.'));
    expect((await remove(admin, siteOwner)).json()).toEqual(
      refusal('The site owner cannot be deleted.'),
    );
    expect((await remove(admin, admin)).json()).toEqual(
      refusal('You cannot delete your own account.'),
    );
    expect((await remove(siteOwner, siteOwner)).json()).toEqual(
      refusal('You cannot delete your own account.'),
    );
    const secondOwner = await signInOwner(testApp.app);
    await setAccount(secondOwner, 'owner', []);
    expect((await remove(siteOwner, secondOwner)).json()).toEqual(
      refusal('The site owner cannot be deleted.'),
    );
    await setAccount(secondOwner, 'user', []);
  });

  it('refuses escalation: no role or permission above one’s own, no acting on a higher role', async () => {
    const admin = await signInOwner(testApp.app);
    await setAccount(admin, 'admin', ['manage_users', 'manage_permissions']);
    const moderator = await signInOwner(testApp.app);
    await setAccount(moderator, 'moderator', ['manage_users', 'manage_permissions']);
    const target = await signInOwner(testApp.app);
    await setAccount(target, 'user', []);

    const toOwner = await patch(admin, target, { role: 'owner', permissions: [], isActive: true });
    expect(toOwner.json()).toEqual(refusal('You cannot grant a role above your own.'));
    const selfToOwner = await patch(admin, admin, {
      role: 'owner',
      permissions: ['manage_users', 'manage_permissions'],
      isActive: true,
    });
    expect(selfToOwner.json()).toEqual(refusal('You cannot grant a role above your own.'));
    const notHeld = await patch(admin, target, {
      role: 'user',
      permissions: ['edit_code'],
      isActive: true,
    });
    expect(notHeld.json()).toEqual(
      refusal('You cannot grant or withdraw a permission you do not hold: Edit Code.'),
    );
    const selfGrant = await patch(admin, admin, {
      role: 'admin',
      permissions: ['manage_users', 'manage_permissions', 'view_all_data'],
      isActive: true,
    });
    expect(selfGrant.statusCode).toBe(403);
    const toAdminByModerator = await patch(moderator, target, {
      role: 'admin',
      permissions: [],
      isActive: true,
    });
    expect(toAdminByModerator.json()).toEqual(refusal('You cannot grant a role above your own.'));
    const onHigherRole = await patch(moderator, admin, {
      role: 'admin',
      permissions: ['manage_users', 'manage_permissions'],
      isActive: false,
    });
    expect(onHigherRole.json()).toEqual(
      refusal('You cannot change an account whose role is above your own.'),
    );
    expect((await remove(moderator, admin)).json()).toEqual(
      refusal('You cannot delete an account whose role is above your own.'),
    );
    // Within one's own authority it works.
    const allowed = await patch(admin, target, {
      role: 'moderator',
      permissions: ['manage_users'],
      isActive: true,
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });

  it('splits PATCH by field: activation needs manage_users, roles and permissions manage_permissions', async () => {
    const activator = await signInOwner(testApp.app);
    await setAccount(activator, 'admin', ['manage_users']);
    const target = await signInOwner(testApp.app);
    await setAccount(target, 'user', []);
    const roleChange = await patch(activator, target, {
      role: 'moderator',
      permissions: [],
      isActive: true,
    });
    expect(roleChange.json()).toEqual(
      refusal('You need the "Manage Permissions" permission to do this.'),
    );
    const deactivate = await patch(activator, target, {
      role: 'user',
      permissions: [],
      isActive: false,
    });
    expect(deactivate.statusCode).toBe(200);
    await setAccount(activator, 'admin', ['manage_permissions']);
    const reactivate = await patch(activator, target, {
      role: 'user',
      permissions: [],
      isActive: true,
    });
    expect(reactivate.json()).toEqual(
      refusal('You need the "Manage Users" permission to do this.'),
    );
  });

  it('never demotes or deactivates the last active owner; with two, one may step down', async () => {
    const demote = await patch(siteOwner, siteOwner, {
      role: 'admin',
      permissions: [],
      isActive: true,
    });
    expect(demote.json()).toEqual(
      refusal('The last active site owner cannot be demoted or deactivated.'),
    );
    const deactivate = await patch(siteOwner, siteOwner, {
      role: 'owner',
      permissions: [],
      isActive: false,
    });
    expect(deactivate.json()).toEqual(refusal('You cannot deactivate your own account.'));

    const second = await signInOwner(testApp.app);
    const promote = await patch(siteOwner, second, {
      role: 'owner',
      permissions: [],
      isActive: true,
    });
    expect(promote.statusCode).toBe(200);
    // Both at once: exactly one may succeed, the lock keeps an owner.
    const [first, other] = await Promise.all([
      patch(siteOwner, second, { role: 'user', permissions: [], isActive: true }),
      patch(second, siteOwner, { role: 'user', permissions: [], isActive: true }),
    ]);
    expect([first.statusCode, other.statusCode].sort()).toEqual([200, 403]);
    const owners = await testApp.database.db
      .select()
      .from(ownerAccounts)
      .where(eq(ownerAccounts.role, 'owner'));
    expect(owners).toHaveLength(1);
    // Put the site owner back for the tests that follow.
    if (owners[0]!.id !== siteOwner.accountId) {
      await setAccount(siteOwner, 'owner', []);
      await setAccount(second, 'user', []);
    }
  });

  it('deactivation ends the console sessions at once and refuses sign-in; the applications keep existing', async () => {
    const vendorAccount = newGoogleAccount();
    const vendor = await signInOwner(testApp.app, vendorAccount);
    const application = await createApplicationViaApi(testApp.app, vendor);
    const response = await patch(siteOwner, vendor, {
      role: 'user',
      permissions: ['manage_applications'],
      isActive: false,
    });
    expect(response.statusCode).toBe(200);
    const afterwards = await testApp.app.inject({ url: '/api/auth/user', headers: vendor.headers });
    expect(afterwards.statusCode).toBe(401);
    await expect(signInOwner(testApp.app, vendorAccount)).rejects.toThrow(/deactivated/);
    const [kept] = await testApp.database.db
      .select()
      .from(applications)
      .where(eq(applications.id, application.id));
    expect(kept?.isActive).toBe(true);
    // Reactivated, the old session stays ended; a new sign-in works.
    await patch(siteOwner, vendor, {
      role: 'user',
      permissions: ['manage_applications'],
      isActive: true,
    });
    expect(
      (await testApp.app.inject({ url: '/api/auth/user', headers: vendor.headers })).statusCode,
    ).toBe(401);
    const again = await signInOwner(testApp.app, vendorAccount);
    expect(again.accountId).toBe(vendor.accountId);
  });

  const environmentOf = async (accountId: string) => {
    const db = testApp.database.db;
    const apps = await db
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.ownerAccountId, accountId));
    const ids = apps.map((row) => row.id);
    const none = ids.length === 0;
    return {
      applications: ids.length,
      endUsers: none
        ? 0
        : (await db.select().from(appUsers).where(inArray(appUsers.applicationId, ids))).length,
      logs: none
        ? 0
        : (await db.select().from(activityLogs).where(inArray(activityLogs.applicationId, ids)))
            .length,
      webhooks: (await db.select().from(webhooks).where(eq(webhooks.ownerAccountId, accountId)))
        .length,
      blacklist: (
        await db
          .select()
          .from(blacklistEntries)
          .where(eq(blacklistEntries.ownerAccountId, accountId))
      ).length,
      samples: (
        await db
          .select()
          .from(integrationSamples)
          .where(eq(integrationSamples.ownerAccountId, accountId))
      ).length,
    };
  };

  const populate = async (vendor: SignedInOwner) => {
    await setAccount(vendor, 'user', ['manage_applications', 'delete_applications', 'edit_code']);
    const application = await createApplicationViaApi(testApp.app, vendor);
    const user = await createAppUserViaApi(testApp.app, vendor, application.id);
    await insertActivityLog(testApp.database.db, {
      applicationId: application.id,
      appUserId: user.id,
      event: 'user_login',
      success: true,
    });
    await createWebhookViaApi(testApp.app, vendor);
    await insertBlacklistEntry(testApp.database.db, {
      ownerAccountId: vendor.accountId,
      applicationId: application.id,
      type: 'username',
      value: `blocked-${vendor.accountId}`,
    });
    const saved = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}/samples/csharp`,
      headers: vendor.headers,
      payload: { code: '// edited' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  };

  it('deleting an account removes its whole environment and nothing else', async () => {
    const doomed = await signInOwner(testApp.app);
    const bystander = await signInOwner(testApp.app);
    await populate(doomed);
    await populate(bystander);
    const full = { applications: 1, endUsers: 1, logs: 1, webhooks: 1, blacklist: 1, samples: 1 };
    expect(await environmentOf(doomed.accountId)).toEqual(full);
    const response = await remove(siteOwner, doomed);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'User has been removed from the system.',
    });
    expect(await environmentOf(doomed.accountId)).toEqual({
      applications: 0,
      endUsers: 0,
      logs: 0,
      webhooks: 0,
      blacklist: 0,
      samples: 0,
    });
    expect(await environmentOf(bystander.accountId)).toEqual(full);
    expect(
      (await testApp.app.inject({ url: '/api/auth/user', headers: doomed.headers })).statusCode,
    ).toBe(401);
    const audit = await testApp.app.inject({ url: '/api/admin/audit', headers: siteOwner.headers });
    expect(audit.json()[0]).toMatchObject({
      action: 'user_deleted',
      target: { id: doomed.accountId, email: doomed.account.email },
      after: null,
    });
  });

  it('shows the site overview as counts only, to view_all_data', async () => {
    const vendor = await signInOwner(testApp.app);
    await populate(vendor);
    const viewer = await signInOwner(testApp.app);
    expect(
      (await testApp.app.inject({ url: '/api/admin/overview', headers: viewer.headers }))
        .statusCode,
    ).toBe(403);
    await setAccount(viewer, 'moderator', ['view_all_data']);
    const response = await testApp.app.inject({
      url: `/api/admin/overview?search=${encodeURIComponent(vendor.account.email)}`,
      headers: viewer.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      {
        accountId: vendor.accountId,
        email: vendor.account.email,
        firstName: expect.anything(),
        lastName: expect.anything(),
        role: 'user',
        isActive: true,
        applicationCount: 1,
        endUserCount: 1,
        apiRequestCount: 0,
        lastActivityAt: null,
      },
    ]);
    const [application] = await testApp.database.db
      .select()
      .from(applications)
      .where(eq(applications.ownerAccountId, vendor.accountId));
    expect(response.body).not.toContain(application!.apiKey);
  });
});
