import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityEventNames } from '@latchkey/contracts';
import {
  activityAddressCounts,
  activityEventAddressCounts,
  activityEventCounts,
  activityLogs,
  applications,
} from '../../db/schema/index.ts';
import { insertApplication } from '../../../test/factories.ts';
import { foldCounterDeltas } from './fold-counter-deltas.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

/**
 * The running totals the triggers of migration 0012 keep (schema/activity-totals.ts) must
 * always equal a count over the rows that exist: the activity log's totals and stat cards
 * are read from them.
 */
describe('activity totals (deltas from activity_logs, folded)', () => {
  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);

  const keptTotals = async (applicationId: number) => {
    const { db } = testApp.database;
    await foldCounterDeltas(db);
    const events = await db
      .select({
        event: activityEventCounts.event,
        rows: sql<number>`sum(${activityEventCounts.rowCount})::int`,
        successes: sql<number>`sum(${activityEventCounts.successCount})::int`,
      })
      .from(activityEventCounts)
      .where(eq(activityEventCounts.applicationId, applicationId))
      .groupBy(activityEventCounts.event);
    const addresses = await db
      .select()
      .from(activityAddressCounts)
      .where(eq(activityAddressCounts.applicationId, applicationId));
    const eventAddresses = await db
      .select()
      .from(activityEventAddressCounts)
      .where(eq(activityEventAddressCounts.applicationId, applicationId));
    return {
      events: Object.fromEntries(
        events
          .filter((row) => row.rows !== 0 || row.successes !== 0)
          .map((row) => [row.event, { rows: row.rows, successes: row.successes }]),
      ),
      addresses: Object.fromEntries(addresses.map((row) => [row.ipAddress, row.rowCount])),
      eventAddresses: Object.fromEntries(
        eventAddresses.map((row) => [`${row.event} ${row.ipAddress}`, row.rowCount]),
      ),
    };
  };
  const countedDirectly = async (applicationId: number) => {
    const rows = await testApp.database.db
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.applicationId, applicationId));
    const events: Record<string, { rows: number; successes: number }> = {};
    const addresses: Record<string, number> = {};
    const eventAddresses: Record<string, number> = {};
    for (const row of rows) {
      const totals = (events[row.event] ??= { rows: 0, successes: 0 });
      totals.rows += 1;
      if (row.success) totals.successes += 1;
      if (row.ipAddress === null) continue;
      addresses[row.ipAddress] = (addresses[row.ipAddress] ?? 0) + 1;
      const key = `${row.event} ${row.ipAddress}`;
      eventAddresses[key] = (eventAddresses[key] ?? 0) + 1;
    }
    return { events, addresses, eventAddresses };
  };
  const logRows = (applicationId: number, count: number) =>
    Array.from({ length: count }, (_, index) => ({
      applicationId,
      event: activityEventNames[index % activityEventNames.length]!,
      success: index % 3 !== 0,
      // Some rows without an address: counted as rows, never as an address.
      ipAddress: index % 5 === 0 ? null : `192.0.2.${index % 4}`,
    }));

  it('equal a count over the log after inserts and deletes, and forget addresses left at zero', async () => {
    const { db } = testApp.database;
    const application = await insertApplication(db, owner.accountId);
    const rows = logRows(application.id, 40);
    await db.insert(activityLogs).values(rows);
    for (const row of rows.slice(0, 7)) await db.insert(activityLogs).values(row);
    const direct = await countedDirectly(application.id);
    expect(await keptTotals(application.id)).toEqual(direct);
    expect(Object.keys(direct.addresses)).toHaveLength(4);

    // Retention deletes the oldest rows in batches: the totals follow.
    await db.execute(
      sql`delete from activity_logs where id in (select id from activity_logs where application_id = ${application.id} order by id limit 25)`,
    );
    expect(await keptTotals(application.id)).toEqual(await countedDirectly(application.id));

    // Every row of one address gone: its address is no longer counted (nor kept at zero).
    await db.execute(
      sql`delete from activity_logs where application_id = ${application.id} and ip_address = '192.0.2.1'`,
    );
    const after = await keptTotals(application.id);
    expect(after).toEqual(await countedDirectly(application.id));
    expect(Object.keys(after.addresses)).not.toContain('192.0.2.1');
    expect(Object.keys(after.eventAddresses).some((key) => key.endsWith(' 192.0.2.1'))).toBe(false);
  });

  it('stay right under concurrent writers of the same addresses and concurrent folds', async () => {
    const { db } = testApp.database;
    const application = await insertApplication(db, owner.accountId);
    // On PostgreSQL these run on several connections at once: the folds take the same
    // counters' locks and race for the same deltas (each must be counted once).
    await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        index % 4 === 3
          ? db.execute(
              sql`delete from activity_logs where id in (select id from activity_logs where application_id = ${application.id} order by id limit 3)`,
            )
          : index % 4 === 1
            ? foldCounterDeltas(db)
            : db.insert(activityLogs).values(logRows(application.id, 10 + index).reverse()),
      ),
    );
    expect(await keptTotals(application.id)).toEqual(await countedDirectly(application.id));
  });

  it('are rebuilt from the rows by the repair, whatever they held', async () => {
    const { db } = testApp.database;
    const application = await insertApplication(db, owner.accountId);
    await db.insert(activityLogs).values(logRows(application.id, 30));
    await foldCounterDeltas(db);
    // Counters gone wrong (a hand edit, a partial restore), and deltas still queued.
    await db.execute(sql`update activity_event_counts set row_count = row_count + 7`);
    await db.execute(sql`delete from activity_address_counts`);
    await db.insert(activityLogs).values(logRows(application.id, 5));
    await db.execute(sql`select rebuild_activity_counters()`);
    expect(await keptTotals(application.id)).toEqual(await countedDirectly(application.id));
  });

  it('go with their application, whose logs are deleted with it', async () => {
    const { db } = testApp.database;
    const application = await insertApplication(db, owner.accountId);
    await db.insert(activityLogs).values(logRows(application.id, 10));
    expect(Object.keys((await keptTotals(application.id)).addresses)).not.toHaveLength(0);
    // Deltas still queued when the application goes are dropped by the fold, not refused.
    await db.insert(activityLogs).values(logRows(application.id, 3));
    await db.delete(applications).where(eq(applications.id, application.id));
    expect(await keptTotals(application.id)).toEqual({
      events: {},
      addresses: {},
      eventAddresses: {},
    });
  });
});
