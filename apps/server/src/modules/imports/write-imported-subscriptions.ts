import { and, eq, sql } from 'drizzle-orm';
import { planLimits } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { imports, plans, type ImportRecord } from '../../db/schema/index.ts';
import type { KeyAuthSubscriptionRow } from './keyauth-application-export.ts';
import { markPlanLevels } from './mark-plan-levels.ts';
import { rememberedLevelPlans } from './remembered-level-plans.ts';
import { createSubscriptionPlanner } from './subscription-planner.ts';

/**
 * One batch of KeyAuth subscriptions: each level becomes a plan (subscription-planner.ts says
 * which), made here where it is new: named after its subscription, lifetime (a KeyAuth
 * subscription has no length of its own: each key and each user's subscription carries its
 * own), its level kept as the entitlement LEVEL_<level> (mark-plan-levels.ts). The import's
 * levelPlans then hold every level and subscription name it mapped, read by the next batch and
 * by later imports of the application. Answers how many plans it made. A file holds at most
 * 1000 subscriptions, so plans are made one by one.
 */
export async function writeImportedSubscriptions(
  tx: Database,
  record: ImportRecord,
  rows: readonly KeyAuthSubscriptionRow[],
  now: Date,
): Promise<number> {
  // The mapping so far: the start's, with what earlier batches added.
  const [current] = await tx
    .select({ levelPlans: imports.levelPlans })
    .from(imports)
    .where(eq(imports.id, record.id));
  const planner = createSubscriptionPlanner({
    levels: record.levels,
    mapped: current?.levelPlans ?? record.levelPlans,
    remembered: await rememberedLevelPlans(tx, record.applicationId, record.id),
    plans: await tx
      .select({ id: plans.id, name: plans.name })
      .from(plans)
      .where(and(eq(plans.applicationId, record.applicationId), eq(plans.isTrial, false))),
  });
  let created = 0;
  for (const row of rows) {
    const planned = planner.plan(row);
    if (planned.kind === 'existing') {
      if (planned.planId === null) throw new Error('a level without its plan in the run');
      planner.record(row, { id: planned.planId, name: planned.planName });
      continue;
    }
    const made = await makePlan(tx, record.applicationId, planned.planName, row.level, now);
    if (made.isNew) created += 1;
    planner.record(row, { id: made.id, name: planned.planName });
  }
  const levelPlans = planner.levelPlans();
  await tx.update(imports).set({ levelPlans }).where(eq(imports.id, record.id));
  const levelsOnly = Object.fromEntries(
    Object.entries(levelPlans).filter(([level]) => record.levels.includes(level)),
  );
  await markPlanLevels(tx, record.applicationId, levelsOnly, now);
  return created;
}

/**
 * The plan named `name`, made unless the application has one by that name (in any case: the
 * unique index), which another write may have made since the planner looked.
 */
async function makePlan(
  tx: Database,
  applicationId: number,
  name: string,
  level: string,
  now: Date,
): Promise<{ id: string; isNew: boolean }> {
  const [made] = await tx
    .insert(plans)
    .values({
      applicationId,
      name,
      durationDays: null,
      description: `From KeyAuth: the subscriptions of level ${level}`.slice(
        0,
        planLimits.description,
      ),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: plans.id });
  if (made) return { id: made.id, isNew: true };
  const result = await tx.execute(
    sql`select id from plans where application_id = ${applicationId} and not trial and lower(name) = lower(${name})`,
  );
  const existing = rowsOf<{ id: string }>(result)[0];
  if (!existing) throw new Error('a plan neither made nor found');
  return { id: existing.id, isNew: false };
}
