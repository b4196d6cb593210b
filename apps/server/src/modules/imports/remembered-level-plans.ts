import { and, desc, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { imports, plans } from '../../db/schema/index.ts';

/** Started imports read for their mappings: far more than an application's migration takes. */
const IMPORTS_REMEMBERED = 100;

export interface RememberedPlan {
  id: string;
  name: string;
  durationDays: number | null;
  isArchived: boolean;
}

/**
 * What the application's earlier imports mapped each KeyAuth level (and each subscription
 * name, which a subscriptions import records beside its levels) to: the latest start's plan
 * wins, and only plans the application still has count. This is how the same level keeps
 * leading to the same plan from one import to the next, and how a second subscriptions
 * import finds the plans the first one made instead of making them again.
 */
export async function rememberedLevelPlans(
  db: Database,
  applicationId: number,
  exceptImportId: string | null,
): Promise<Map<string, RememberedPlan>> {
  const started = await db
    .select({ levelPlans: imports.levelPlans })
    .from(imports)
    .where(
      and(
        eq(imports.applicationId, applicationId),
        isNotNull(imports.startedAt),
        exceptImportId === null ? undefined : ne(imports.id, exceptImportId),
      ),
    )
    .orderBy(desc(imports.startedAt))
    .limit(IMPORTS_REMEMBERED);
  const planIdOf = new Map<string, string>();
  // Newest first: a level's first mapping seen is its latest.
  for (const { levelPlans } of started) {
    for (const [level, planId] of Object.entries(levelPlans)) {
      if (!planIdOf.has(level)) planIdOf.set(level, planId);
    }
  }
  if (planIdOf.size === 0) return new Map();
  const planIds = [...new Set(planIdOf.values())];
  const found = await db
    .select({
      id: plans.id,
      name: plans.name,
      durationDays: plans.durationDays,
      isArchived: plans.isArchived,
    })
    .from(plans)
    .where(
      and(
        eq(plans.applicationId, applicationId),
        eq(plans.isTrial, false),
        sql`${plans.id} = any(${sql.param(planIds)}::uuid[])`,
      ),
    );
  const planById = new Map(found.map((plan) => [plan.id, plan]));
  const remembered = new Map<string, RememberedPlan>();
  for (const [level, planId] of planIdOf) {
    const plan = planById.get(planId);
    if (plan) remembered.set(level, plan);
  }
  return remembered;
}
