import { describe, expect, it } from 'vitest';
import { insertApplication, insertAppUser, insertAppUserSession } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { type SignedInOwner } from '../../../test/test-app.ts';

describe('GET /api/dashboard/stats', () => {
  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);
  const otherOwner = signInOwnerForSuite(testApp);

  const stats = (who: SignedInOwner) =>
    testApp.app.inject({ url: '/api/dashboard/stats', headers: who.headers }).then((r) => r.json());

  it('starts at zero with the default account type', async () => {
    expect(await stats(owner)).toEqual({
      totalUsers: 0,
      totalApiKeys: 0,
      activeApiKeys: 0,
      accountType: 'Premium',
      totalApplications: 0,
      activeApplications: 0,
      totalActiveSessions: 0,
      unusedLicenses: 0,
      usedLicenses: 0,
    });
  });

  it("counts only the owner's own applications, users and live sessions", async () => {
    const db = testApp.database.db;
    const active = await insertApplication(db, owner.accountId);
    const inactive = await insertApplication(db, owner.accountId, { isActive: false });
    const foreign = await insertApplication(db, otherOwner.accountId);
    const alice = await insertAppUser(db, active.id);
    await insertAppUser(db, active.id);
    await insertAppUser(db, inactive.id);
    const stranger = await insertAppUser(db, foreign.id);
    const now = Date.now();
    await insertAppUserSession(db, {
      applicationId: active.id,
      appUserId: alice.id,
      lastHeartbeatAt: new Date(now - 10_000),
    });
    // Silent for more than 90 s, or ended: no longer live.
    await insertAppUserSession(db, {
      applicationId: active.id,
      appUserId: alice.id,
      lastHeartbeatAt: new Date(now - 120_000),
    });
    await insertAppUserSession(db, {
      applicationId: active.id,
      appUserId: alice.id,
      lastHeartbeatAt: new Date(now - 5_000),
      endedAt: new Date(now - 1_000),
    });
    await insertAppUserSession(db, {
      applicationId: foreign.id,
      appUserId: stranger.id,
      lastHeartbeatAt: new Date(now),
    });

    expect(await stats(owner)).toEqual({
      totalUsers: 3,
      totalApiKeys: 2,
      activeApiKeys: 1,
      accountType: 'Premium',
      totalApplications: 2,
      activeApplications: 1,
      totalActiveSessions: 1,
      unusedLicenses: 0,
      usedLicenses: 0,
    });
    expect(await stats(otherOwner)).toMatchObject({
      totalUsers: 1,
      totalApplications: 1,
      totalActiveSessions: 1,
      unusedLicenses: 0,
      usedLicenses: 0,
    });
  });
});
