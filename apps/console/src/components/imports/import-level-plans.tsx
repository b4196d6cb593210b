import type { ImportKind, Plan } from '@latchkey/contracts';
import { useEffect, useId } from 'react';
import { PlanSelect } from '@/components/plans/plan-select.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { PLANS_FETCH_ERROR, usePlans } from '@/hooks/use-plans.ts';
import { defaultPlanOfLevel, describeLevel } from './import-display.ts';

export const NO_SUBSCRIPTION_LABEL = 'No subscription';
export const NEW_PLAN_LABEL = 'A new plan';

/** What a level's plan does, for each kind with levels. */
const LEVEL_PLAN_HINTS: Partial<Record<ImportKind, string>> = {
  users:
    'Each subscription becomes a subscription to the plan chosen for its level, with the same expiry. A level without a plan grants none.',
  keys: 'Each key becomes a key of the plan chosen for its level.',
  subscriptions:
    'Each level becomes one plan, named after its subscription: choose a plan you already have to use it instead. Later imports of users and keys suggest the same plans.',
};

/** What a level left without a plan means, where it may be left so. */
const UNMAPPED_LABELS: Partial<Record<ImportKind, string>> = {
  users: NO_SUBSCRIPTION_LABEL,
  subscriptions: NEW_PLAN_LABEL,
};

/**
 * A plan for each KeyAuth level found in the file. A key must have one; a user's level may be
 * left without, and then grants no subscription; a subscription's level left without becomes a
 * new plan. Archived plans take nothing new.
 */
export function ImportLevelPlans({
  applicationId,
  kind,
  levels,
  levelPlans,
  unmappedLevels,
  onLevelPlanChange,
}: {
  applicationId: number;
  kind: ImportKind;
  levels: readonly string[];
  levelPlans: Readonly<Record<string, string>>;
  /** Levels a failed check found without a plan: marked invalid. */
  unmappedLevels: readonly string[];
  onLevelPlanChange: (level: string, planId: string) => void;
}) {
  const id = useId();
  const plansQuery = usePlans(applicationId);
  const isRequired = kind === 'keys';

  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-3">
      <div className="grid gap-1">
        <h3 id={`${id}-title`} className="text-sm font-medium">
          Plans for KeyAuth levels
        </h3>
        <p className="text-sm text-muted-foreground">{LEVEL_PLAN_HINTS[kind]}</p>
      </div>
      {levels.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {kind === 'users'
            ? 'The file has no subscriptions: users are imported without any.'
            : 'The file has no levels.'}
        </p>
      ) : plansQuery.isPending ? (
        <div role="status" aria-label="Loading plans" className="grid gap-2">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-9 w-full" />
        </div>
      ) : plansQuery.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorToastMessage(plansQuery.error, PLANS_FETCH_ERROR)}
        </p>
      ) : (
        <LevelSelects
          id={id}
          kind={kind}
          plans={plansQuery.data.filter((plan) => !plan.archived)}
          levels={levels}
          levelPlans={levelPlans}
          unmappedLevels={unmappedLevels}
          isRequired={isRequired}
          unmappedLabel={UNMAPPED_LABELS[kind] ?? NO_SUBSCRIPTION_LABEL}
          onLevelPlanChange={onLevelPlanChange}
        />
      )}
    </section>
  );
}

function LevelSelects({
  id,
  kind,
  plans,
  levels,
  levelPlans,
  unmappedLevels,
  isRequired,
  unmappedLabel,
  onLevelPlanChange,
}: {
  id: string;
  kind: ImportKind;
  plans: readonly Plan[];
  levels: readonly string[];
  levelPlans: Readonly<Record<string, string>>;
  unmappedLevels: readonly string[];
  isRequired: boolean;
  unmappedLabel: string;
  onLevelPlanChange: (level: string, planId: string) => void;
}) {
  // Once the plans are known, a level nobody chose for yet starts on the plan of its name.
  useEffect(() => {
    for (const level of levels) {
      if (levelPlans[level] !== undefined) continue;
      const plan = defaultPlanOfLevel(kind, level, plans);
      if (plan) onLevelPlanChange(level, plan.id);
    }
  }, [kind, levels, levelPlans, plans, onLevelPlanChange]);

  if (plans.length === 0 && isRequired) {
    return (
      <p className="rounded-md border border-border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">
        This application has no active plan. Create one in the Plans tab first.
      </p>
    );
  }
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {levels.map((level, index) => (
        <PlanSelect
          key={level}
          id={`${id}-level-${index}`}
          label={describeLevel(level)}
          plans={plans}
          value={levelPlans[level] ?? ''}
          onValueChange={(planId) => onLevelPlanChange(level, planId)}
          isRequired={isRequired}
          isInvalid={unmappedLevels.includes(level)}
          {...(isRequired ? {} : { noPlanLabel: unmappedLabel })}
        />
      ))}
    </div>
  );
}
