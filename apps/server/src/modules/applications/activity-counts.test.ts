import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityEventNames, LOGIN_FAILURE_EVENTS, LOGIN_SUCCESS_EVENT } from '@latchkey/contracts';
import { activityCounts, activityLogs, applications } from '../../db/schema/index.ts';
import { insertApplication } from '../../../test/factories.ts';
import { foldCounterDeltas } from '../activity/index.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

/**
 * The definition the counters' triggers implement (counts_as_login_attempt and
 * counts_as_login_success, migration 0035), from the contracts.
 */
const isAttempt = (row: { event: string; metadata: Record<string, unknown> | null }) =>
  (row.event === LOGIN_SUCCESS_EVENT ||
    (LOGIN_FAILURE_EVENTS as readonly string[]).includes(row.event)) &&
  row.metadata?.action !== 'register';
const isSuccess = (row: { event: string; success: boolean }) =>
  row.event === LOGIN_SUCCESS_EVENT && row.success;

describe('activity counters (deltas from activity_logs, folded)', () => {
  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);

  const countersOf = async (applicationId: number) => {
    await foldCounterDeltas(testApp.database.db);
    const [row] = await testApp.database.db
      .select({
        attempts: sql<number>`coalesce(sum(${activityCounts.loginAttempts}), 0)::int`,
        successes: sql<number>`coalesce(sum(${activityCounts.loginSuccesses}), 0)::int`,
      })
      .from(activityCounts)
      .where(eq(activityCounts.applicationId, applicationId));
    return row!;
  };
  const countedDirectly = async (applicationId: number) => {
    const rows = await testApp.database.db
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.applicationId, applicationId));
    return {
      attempts: rows.filter(isAttempt).length,
      successes: rows.filter(isSuccess).length,
    };
  };

  it('equal a count over the log for every event, after inserts and deletes', async () => {
    const { db } = testApp.database;
    const application = await insertApplication(db, owner.accountId);
    // Every event the contracts know, both outcomes, with and without action=register, in
    // one multi-row statement and in single ones.
    const rows = activityEventNames.flatMap((event) =>
      [true, false].flatMap((success) =>
        [null, { action: 'register' }, { action: 'login' }].map((metadata) => ({
          applicationId: application.id,
          event,
          success,
          metadata,
        })),
      ),
    );
    await db.insert(activityLogs).values(rows);
    for (const row of rows.slice(0, 12)) await db.insert(activityLogs).values(row);
    expect(await countersOf(application.id)).toEqual(await countedDirectly(application.id));
    expect((await countersOf(application.id)).attempts).toBeGreaterThan(0);

    // Retention deletes old rows in batches: the counters follow.
    await db.execute(
      sql`delete from activity_logs where id in (select id from activity_logs where application_id = ${application.id} order by id limit 20)`,
    );
    expect(await countersOf(application.id)).toEqual(await countedDirectly(application.id));
  });

  it('go with their application, whose logs are deleted with it', async () => {
    const { db } = testApp.database;
    const application = await insertApplication(db, owner.accountId);
    await db.insert(activityLogs).values([
      { applicationId: application.id, event: LOGIN_SUCCESS_EVENT, success: true },
      { applicationId: application.id, event: 'login_failed', success: false },
    ]);
    expect(await countersOf(application.id)).toEqual({ attempts: 2, successes: 1 });
    await db.delete(applications).where(eq(applications.id, application.id));
    const left = await db
      .select()
      .from(activityCounts)
      .where(eq(activityCounts.applicationId, application.id));
    expect(left).toEqual([]);
  });
});
