import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerAccounts, type OwnerAccount } from '../db/schema/index.ts';
import type { OwnerContext } from '../http/request-context.ts';
import { systemClock } from '../lib/clock.ts';
import { insertActivityLog, insertAppUser, insertApplication } from '../../test/factories.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { countActivityRows, readActivityTotals } from '../modules/activity/activity-totals.ts';
import {
  activityLogFilterWhere,
  searchMatchesWhere,
} from '../modules/activity/activity-log-filter-where.ts';
import { activityLogs } from '../db/schema/index.ts';
import { countAppUsers } from '../modules/app-users/count-app-users.ts';
import { ownedApplicationIds } from './load-owned-application.ts';

/**
 * The query layer's own owner guard, called directly with another owner's application id.
 * Every route also checks the application first (loadOwnedApplication), which would hide a
 * broken guard from the route-level tests; these tests are what fails if the named-application
 * branch of ownedApplicationIds ever matches on the id alone.
 */
describe('ownedApplicationIds: the owner filter of statements on tables keyed by application', () => {
  let database: TestDatabase;
  let ownerContext: OwnerContext;
  let ownApplicationId: number;
  let otherApplicationId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    const [owner, other] = await database.db
      .insert(ownerAccounts)
      .values([
        { firebaseUid: 'owner-uid', email: 'owner@example.com' },
        { firebaseUid: 'other-uid', email: 'other@example.com' },
      ])
      .returning();
    ownerContext = contextOf(database, owner!);
    const own = await insertApplication(database.db, owner!.id, { name: 'Own' });
    const foreign = await insertApplication(database.db, other!.id, { name: 'Foreign' });
    ownApplicationId = own.id;
    otherApplicationId = foreign.id;
    for (const applicationId of [ownApplicationId, otherApplicationId]) {
      const user = await insertAppUser(database.db, applicationId);
      await insertActivityLog(database.db, {
        applicationId,
        event: 'login',
        success: true,
        appUserId: user.id,
        username: user.username,
      });
    }
  });

  afterAll(async () => {
    await database?.close();
  });

  it("answers no id for another owner's application, and the named one for the owner's", async () => {
    expect(await ownedApplicationIds(ownerContext, otherApplicationId)).toEqual([]);
    expect(await ownedApplicationIds(ownerContext, ownApplicationId)).toEqual([
      { id: ownApplicationId },
    ]);
    expect(await ownedApplicationIds(ownerContext)).toEqual([{ id: ownApplicationId }]);
  });

  it("counts nothing of another owner's application in the statements that use it", async () => {
    const foreign = { applicationId: otherApplicationId };
    expect(await countAppUsers(ownerContext, foreign)).toBe(0);
    expect(await countActivityRows(ownerContext, foreign)).toBe(0);
    expect(await readActivityTotals(ownerContext, foreign)).toEqual({
      totalEvents: 0,
      successful: 0,
      failed: 0,
      uniqueIps: 0,
    });
    const foreignRows = await ownerContext.db
      .select({ id: activityLogs.id })
      .from(activityLogs)
      .where(activityLogFilterWhere(ownerContext, foreign, null));
    expect(foreignRows).toEqual([]);
    const foreignSearch = await ownerContext.db
      .select({ id: activityLogs.id })
      .from(activityLogs)
      .where((await searchMatchesWhere(ownerContext, { ...foreign, search: 'user_' }))!);
    expect(foreignSearch).toEqual([]);

    // The same statements do see the owner's own rows: the zeros above are the guard's.
    const own = { applicationId: ownApplicationId };
    expect(await countAppUsers(ownerContext, own)).toBe(1);
    expect(await countActivityRows(ownerContext, own)).toBe(1);
    const ownSearch = await ownerContext.db
      .select({ id: activityLogs.id })
      .from(activityLogs)
      .where((await searchMatchesWhere(ownerContext, { ...own, search: 'user_' }))!);
    expect(ownSearch).toHaveLength(1);
  });
});

function contextOf(database: TestDatabase, account: OwnerAccount): OwnerContext {
  return {
    db: database.db,
    log: pino({ level: 'silent' }),
    clock: systemClock,
    account,
    actor: { token: null, ipAddress: '127.0.0.1' },
  };
}
