import { planLimits } from '@latchkey/contracts';
import type { KeyAuthSubscriptionRow } from './keyauth-application-export.ts';
import type { RememberedPlan } from './remembered-level-plans.ts';

/**
 * Where a subscription's level leads: a plan the application has (null in a preview: the one
 * an earlier row of the level would make), or a plan to make.
 */
export type SubscriptionPlan =
  | { kind: 'existing'; planId: string | null; planName: string; reason: string }
  | { kind: 'new'; planName: string };

export interface SubscriptionPlanner {
  plan(row: KeyAuthSubscriptionRow): SubscriptionPlan;
  /** What the row's level now leads to: a plan's id, or null for one the preview would make. */
  record(row: KeyAuthSubscriptionRow, plan: { id: string | null; name: string }): void;
  /** Each level with a plan, and each subscription name whose text is no level of the file. */
  levelPlans(): Record<string, string>;
}

/**
 * Which plan each KeyAuth subscription becomes, the same way in the preview and in the run. A
 * redeemed key grants every subscription of its level, so a level is one plan; a level
 * leads, in this order, to the plan this import already gave it (at the start, or an earlier
 * row of the same level), the plan an earlier import of the application gave it (or gave the
 * subscription's name), a plan named like the subscription that no other level of this import
 * took, or a new plan named after its first subscription (with the level added if that name
 * is taken). So re-running an import, or importing the same subscriptions twice, makes no plan
 * twice.
 */
export function createSubscriptionPlanner(input: {
  levels: readonly string[];
  mapped: Readonly<Record<string, string>>;
  remembered: ReadonlyMap<string, RememberedPlan>;
  plans: readonly { id: string; name: string }[];
}): SubscriptionPlanner {
  const levels = new Set(input.levels);
  const planByLevel = new Map<string, { id: string | null; name: string }>();
  const planByLowerName = new Map<string, { id: string | null; name: string }>();
  const levelsOfPlan = new Map<string, Set<string>>();
  const names = new Map<string, string>();
  const firstRowOfLevel = new Map<string, number>();
  const planNames = new Map(input.plans.map((plan) => [plan.id, plan.name]));
  for (const plan of input.plans) planByLowerName.set(plan.name.toLowerCase(), plan);

  const claim = (level: string, plan: { id: string | null; name: string }) => {
    planByLevel.set(level, plan);
    planByLowerName.set(plan.name.toLowerCase(), plan);
    const key = plan.id ?? `new:${plan.name.toLowerCase()}`;
    levelsOfPlan.set(key, new Set([...(levelsOfPlan.get(key) ?? []), level]));
  };
  const isTakenByOtherLevel = (plan: { id: string | null; name: string }, level: string) => {
    const taken = levelsOfPlan.get(plan.id ?? `new:${plan.name.toLowerCase()}`);
    return taken !== undefined && [...taken].some((other) => other !== level);
  };
  for (const [key, planId] of Object.entries(input.mapped)) {
    if (levels.has(key)) claim(key, { id: planId, name: planNames.get(planId) ?? '' });
    else names.set(key, planId);
  }

  return {
    plan(row) {
      const level = row.level;
      const held = planByLevel.get(level);
      if (held) {
        const first = firstRowOfLevel.get(level);
        return {
          kind: 'existing',
          planId: held.id,
          planName: held.name,
          reason:
            first === undefined
              ? `row ${row.rowNumber}: level '${level}' is mapped to the plan '${held.name}'`
              : `row ${row.rowNumber}: level '${level}' is one plan with row ${first}`,
        };
      }
      const remembered = input.remembered.get(level) ?? input.remembered.get(row.name);
      if (remembered) {
        return {
          kind: 'existing',
          planId: remembered.id,
          planName: remembered.name,
          reason: `row ${row.rowNumber}: level '${level}' already leads to the plan '${remembered.name}' (an earlier import)`,
        };
      }
      const sameName = planByLowerName.get(row.name.toLowerCase());
      if (sameName?.id && !isTakenByOtherLevel(sameName, level)) {
        return {
          kind: 'existing',
          planId: sameName.id,
          planName: sameName.name,
          reason: `row ${row.rowNumber}: the application already has a plan named '${sameName.name}': level '${level}' leads to it`,
        };
      }
      if (!sameName) return { kind: 'new', planName: row.name };
      const withLevel = `${row.name} (level ${level})`.slice(0, planLimits.name);
      const named = planByLowerName.get(withLevel.toLowerCase());
      if (named?.id && !isTakenByOtherLevel(named, level)) {
        return {
          kind: 'existing',
          planId: named.id,
          planName: named.name,
          reason: `row ${row.rowNumber}: the application already has a plan named '${named.name}': level '${level}' leads to it`,
        };
      }
      return { kind: 'new', planName: withLevel };
    },
    record(row, plan) {
      if (!firstRowOfLevel.has(row.level)) firstRowOfLevel.set(row.level, row.rowNumber);
      if (!planByLevel.has(row.level)) claim(row.level, plan);
      if (plan.id !== null && !levels.has(row.name) && !names.has(row.name)) {
        names.set(row.name, plan.id);
      }
    },
    levelPlans() {
      const result: Record<string, string> = Object.fromEntries(names);
      for (const [level, plan] of planByLevel) if (plan.id !== null) result[level] = plan.id;
      return result;
    },
  };
}
