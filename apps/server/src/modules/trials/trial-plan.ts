import { sql } from 'drizzle-orm';
import { TRIAL_GRANT_NAME } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { plans } from '../../db/schema/index.ts';

/**
 * Writes the application's trial plan from its trial settings (created on first need), in the
 * caller's transaction, and answers its id. A trial is a subscription of this plan, so its
 * entitlements reach login, verify and offline licences through the path every plan takes, and
 * changing the trial's entitlements changes them for the trials already running.
 */
export async function syncTrialPlan(
  db: Database,
  application: { id: number; trialDays: number | null; trialEntitlements: string[] },
  now: Date,
): Promise<string> {
  const [plan] = await db
    .insert(plans)
    .values({
      applicationId: application.id,
      name: TRIAL_GRANT_NAME,
      durationDays: application.trialDays,
      entitlements: application.trialEntitlements,
      isTrial: true,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: plans.applicationId,
      targetWhere: sql`${plans.isTrial}`,
      set: {
        durationDays: application.trialDays,
        entitlements: application.trialEntitlements,
        updatedAt: now,
      },
    })
    .returning({ id: plans.id });
  if (!plan) throw new Error('the trial plan upsert returned no row');
  return plan.id;
}
