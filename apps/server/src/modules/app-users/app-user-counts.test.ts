import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { appUserCounts, appUsers, applications } from '../../db/schema/index.ts';
import { insertApplication } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

/**
 * The user counters the triggers of migration 0013 keep (schema/app-user-counts.ts) must
 * always equal a count over app_users: the users page's total, the application's stats and
 * the dashboard read them.
 */
describe('end-user counters (triggers on app_users)', () => {
  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);

  const kept = async (applicationId: number) => {
    const [row] = await testApp.database.db
      .select({
        users: sql<number>`coalesce(sum(${appUserCounts.userCount}), 0)::int`,
        enabled: sql<number>`coalesce(sum(${appUserCounts.enabledCount}), 0)::int`,
      })
      .from(appUserCounts)
      .where(eq(appUserCounts.applicationId, applicationId));
    return row!;
  };
  const countedDirectly = async (applicationId: number) => {
    const rows = await testApp.database.db
      .select()
      .from(appUsers)
      .where(eq(appUsers.applicationId, applicationId));
    return {
      users: rows.length,
      enabled: rows.filter((row) => row.isActive && !row.isPaused).length,
    };
  };
  const users = (applicationId: number, count: number, prefix: string) =>
    Array.from({ length: count }, (_, index) => ({
      applicationId,
      username: `${prefix}-${index}`,
      passwordHash: 'not-a-real-hash',
      isActive: index % 5 !== 0,
      isPaused: index % 3 === 0,
    }));

  it('equal a count over the users after inserts, updates and deletes', async () => {
    const { db } = testApp.database;
    const application = await insertApplication(db, owner.accountId);
    await db.insert(appUsers).values(users(application.id, 30, 'many'));
    for (const user of users(application.id, 4, 'one')) await db.insert(appUsers).values(user);
    expect(await kept(application.id)).toEqual(await countedDirectly(application.id));

    // Pausing, unpausing, deactivating (one and many at once), and updates that enable or
    // disable nobody (a login's stamp, a pause of a paused user).
    await db
      .update(appUsers)
      .set({ isPaused: true })
      .where(
        sql`${appUsers.applicationId} = ${application.id} and ${appUsers.username} like 'many-1%'`,
      );
    await db
      .update(appUsers)
      .set({ isPaused: false })
      .where(
        sql`${appUsers.applicationId} = ${application.id} and ${appUsers.username} like '%-2%'`,
      );
    await db
      .update(appUsers)
      .set({ isActive: false, isPaused: false })
      .where(sql`${appUsers.applicationId} = ${application.id} and ${appUsers.username} = 'one-1'`);
    await db
      .update(appUsers)
      .set({ lastLogin: new Date(), isPaused: sql`${appUsers.isPaused}` })
      .where(eq(appUsers.applicationId, application.id));
    expect(await kept(application.id)).toEqual(await countedDirectly(application.id));

    await db.execute(
      sql`delete from app_users where id in (select id from app_users where application_id = ${application.id} order by username limit 11)`,
    );
    const after = await kept(application.id);
    expect(after).toEqual(await countedDirectly(application.id));
    expect(after.users).toBe(23);
  });

  it('stay right under concurrent writers', async () => {
    const { db } = testApp.database;
    const application = await insertApplication(db, owner.accountId);
    await db.insert(appUsers).values(users(application.id, 20, 'base'));
    // On PostgreSQL these run on several connections at once.
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        index % 3 === 0
          ? db
              .update(appUsers)
              .set({ isPaused: index % 2 === 0 })
              .where(
                sql`${appUsers.applicationId} = ${application.id} and ${appUsers.username} like ${`base-${index % 10}%`}`,
              )
          : db.insert(appUsers).values(users(application.id, 3, `wave-${index}`)),
      ),
    );
    expect(await kept(application.id)).toEqual(await countedDirectly(application.id));
  });

  it('go with their application, whose users are deleted with it', async () => {
    const { db } = testApp.database;
    const application = await insertApplication(db, owner.accountId);
    await db.insert(appUsers).values(users(application.id, 5, 'gone'));
    expect((await kept(application.id)).users).toBe(5);
    await db.delete(applications).where(eq(applications.id, application.id));
    const left = await db
      .select()
      .from(appUserCounts)
      .where(eq(appUserCounts.applicationId, application.id));
    expect(left).toEqual([]);
  });
});
