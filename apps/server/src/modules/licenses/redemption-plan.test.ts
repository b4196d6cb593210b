import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows-of.ts';
import {
  createApplicationViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { clientRedemptionStatement } from './redeem-license-key.ts';

/**
 * A redemption must find its key through the (application, digest) unique index whatever the
 * statistics say. The statement is prepared once per connection and PostgreSQL soon runs it
 * with a generic plan, made from the statistics of that moment: when they said few keys were
 * unused (analyzed before a batch was generated), a plan that also checked the state in the
 * lookup walked the (application, state) index through every unused key instead, milliseconds
 * a redemption and growing with the keys.
 */
describe('the redemption statement', () => {
  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);

  it('looks the key up by its digest under a generic plan made from stale statistics', async () => {
    const { db } = testApp.database;
    const application = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id, { durationDays: 30 });
    await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: plan.id,
      count: 400,
    });
    // Statistics taken while no key is unused, then every key unused again: stale, as after a
    // batch is generated and before autovacuum analyzes the table.
    await db.execute(
      sql`update license_keys set state = 'banned' where application_id = ${application.id}`,
    );
    await db.execute(sql`analyze license_keys`);
    await db.execute(
      sql`update license_keys set state = 'unused' where application_id = ${application.id}`,
    );

    const { text, parameterNames } = clientRedemptionStatement;
    const values: Record<(typeof parameterNames)[number], string> = {
      applicationId: String(application.id),
      appUserId: '00000000-0000-4000-8000-000000000000',
      digest: 'no-such-digest',
      at: '2026-06-01T00:00:00Z',
      username: 'someone',
      ipAddress: '203.0.113.7',
      metadata: '{}',
      channel: 'latchkey_application_changes',
      payload: '{}',
      listenerName: 'latchkey-listener',
    };
    const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
    const planText = await db.transaction(async (tx) => {
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      await tx.execute(sql.raw(`prepare redemption_plan_check as ${text}`));
      try {
        const explained = await tx.execute(
          sql.raw(
            `explain execute redemption_plan_check(${parameterNames
              .map((name) => literal(values[name]))
              .join(', ')})`,
          ),
        );
        return rowsOf<{ 'QUERY PLAN': string }>(explained)
          .map((row) => row['QUERY PLAN'])
          .join('\n');
      } finally {
        await tx.execute(sql`deallocate redemption_plan_check`);
      }
    });
    expect(planText).toContain('license_keys_application_digest_idx');
    expect(planText).not.toContain('license_keys_application_state_idx');
  });
});
