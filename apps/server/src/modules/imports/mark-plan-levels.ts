import { sql } from 'drizzle-orm';
import { planLimits } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';

/** KeyAuth's levels are numbers in practice (`subscriptions.level` is varchar(12)). */
const NUMERIC_LEVEL = /^\d{1,12}$/;

/**
 * Keeps each KeyAuth level on the plan it was mapped to, as the entitlement `LEVEL_<level>`:
 * the KeyAuth-compatible API answers a subscription's `level` from it (else 1), and KeyAuth's
 * programs branch on that level. A plan that already names a level keeps it (a plan leads to
 * one level), one at the most entitlements keeps what it has, and a level that is not a
 * number (a users file maps subscription names, such as "default") names none. Entitlements
 * stay sorted without duplicates, as the plans contract keeps them. Idempotent: a resumed or
 * repeated import changes nothing more.
 */
export async function markPlanLevels(
  tx: Database,
  applicationId: number,
  levelPlans: Readonly<Record<string, string>>,
  now: Date,
): Promise<void> {
  const marks = Object.entries(levelPlans)
    .filter(([level]) => NUMERIC_LEVEL.test(level))
    .map(([level, planId]) => ({ plan_id: planId, entitlement: `LEVEL_${Number(level)}` }));
  if (marks.length === 0) return;
  await tx.execute(sql`
    update plans p
    -- "C": the code-unit order in which the plans contract sorts them.
    set entitlements = array(select distinct e collate "C"
                             from unnest(p.entitlements || m.entitlement) as e order by 1),
        updated_at = ${now.toISOString()}::timestamptz
    from (select distinct on (plan_id) plan_id, entitlement
          from jsonb_to_recordset(${JSON.stringify(marks)}::jsonb)
            as r(plan_id uuid, entitlement text)
          order by plan_id, entitlement) as m
    where p.id = m.plan_id
      and p.application_id = ${applicationId}
      and cardinality(p.entitlements) < ${planLimits.entitlements}
      and not exists (select 1 from unnest(p.entitlements) as held(code)
                      where held.code ~* '^LEVEL_[0-9]+$')`);
}
