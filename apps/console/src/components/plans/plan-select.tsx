import type { Plan } from '@latchkey/contracts';
import { FormField } from '@/components/ui/form-field.tsx';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select.tsx';
import { formatPlanDuration } from './plan-display.ts';

/**
 * A labelled choice of one of an application's plans, with each plan's duration beside its
 * name. Archived plans are left out by the caller where they may not be chosen (new keys).
 */
export function PlanSelect({
  id,
  label,
  plans,
  value,
  onValueChange,
  placeholder = 'Choose a plan',
  isRequired = false,
  className,
}: {
  id: string;
  label: string;
  plans: readonly Plan[];
  value: string;
  onValueChange: (planId: string) => void;
  placeholder?: string;
  isRequired?: boolean;
  className?: string;
}) {
  return (
    <FormField htmlFor={id} label={label} isRequired={isRequired} className={className}>
      <Select value={value} onValueChange={onValueChange}>
        <SelectTrigger id={id} aria-required={isRequired || undefined}>
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent>
          {plans.map((plan) => (
            <SelectItem key={plan.id} value={plan.id}>
              {plan.name} ({formatPlanDuration(plan.durationDays)})
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </FormField>
  );
}
