import type { Plan } from '@latchkey/contracts';
import { FieldProblem, FormField } from '@/components/ui/form-field.tsx';
import { OptionSelect } from '@/components/ui/option-select.tsx';
import { formatPlanDuration } from './plan-display.ts';

/** The Select's value of the "none" choice: Radix reserves the empty string. */
const NO_PLAN = 'none';

/**
 * A labelled choice of one of an application's plans, with each plan's duration beside its
 * name. Archived plans are left out by the caller where they may not be chosen (new keys).
 * With `noPlanLabel` the first choice is no plan at all, given to `onValueChange` as ''. A
 * `problem` is said below the select, which is marked invalid.
 */
export function PlanSelect({
  id,
  label,
  plans,
  value,
  onValueChange,
  placeholder = 'Choose a plan',
  isRequired = false,
  isInvalid = false,
  problem,
  noPlanLabel,
  className,
}: {
  id: string;
  label: string;
  plans: readonly Plan[];
  value: string;
  onValueChange: (planId: string) => void;
  placeholder?: string;
  isRequired?: boolean;
  isInvalid?: boolean;
  problem?: string | null | undefined;
  noPlanLabel?: string;
  className?: string;
}) {
  const selected = value === '' && noPlanLabel !== undefined ? NO_PLAN : value;
  return (
    <FormField htmlFor={id} label={label} isRequired={isRequired} className={className}>
      <OptionSelect
        id={id}
        value={selected}
        onValueChange={(planId) => onValueChange(planId === NO_PLAN ? '' : planId)}
        options={[
          ...(noPlanLabel === undefined ? [] : [{ value: NO_PLAN, label: noPlanLabel }]),
          ...plans.map((plan) => ({
            value: plan.id,
            label: (
              <>
                {plan.name} ({formatPlanDuration(plan.durationDays)})
              </>
            ),
          })),
        ]}
        placeholder={placeholder}
        aria-required={isRequired || undefined}
        aria-invalid={isInvalid || Boolean(problem) || undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
      />
      {problem && <FieldProblem id={`${id}-problem`}>{problem}</FieldProblem>}
    </FormField>
  );
}
