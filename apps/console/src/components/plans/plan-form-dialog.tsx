import { planLimits, updatesFromSchema, type Plan } from '@latchkey/contracts';
import { useId } from 'react';
import {
  DialogForm,
  defineApplicationItemDialogs,
  useCreateOrEditForm,
  type CreateOrEditFormProps,
} from '@/components/ui/form-dialog.tsx';
import { FormField, InputField, SwitchField, TextareaField } from '@/components/ui/form-field.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import { useCreatePlan, useUpdatePlan } from '@/hooks/use-plans.ts';
import {
  EMPTY_PLAN_FIELDS,
  findPlanProblems,
  toPlanFields,
  toPlanRequest,
  UPDATES_FROM_LABELS,
  type PlanFields,
} from './plan-display.ts';
import { PlanMetersField } from './plan-meters-field.tsx';

/** The Create Plan dialog (opened from its own button) and the Edit Plan dialog (from a row). */
export const { CreateItemDialog: CreatePlanDialog, EditItemDialog: EditPlanDialog } =
  defineApplicationItemDialogs({
    noun: 'Plan',
    createDescription: (applicationName) =>
      `A plan of ${applicationName}: how long a licence key lasts and what it unlocks.`,
    editDescription:
      'Keys and subscriptions already granted keep what they were given; changes apply to new ones.',
    emptyFields: EMPTY_PLAN_FIELDS,
    toFields: toPlanFields,
    toRequest: toPlanRequest,
    toUpdate: (plan: Plan, changes) => ({ planId: plan.id, changes }),
    useCreate: useCreatePlan,
    useUpdate: useUpdatePlan,
    Form: PlanForm,
  });

function PlanForm(props: CreateOrEditFormProps<PlanFields>) {
  const id = useId();
  // Every field's problem at its field, all at once.
  const { bindText, fields, setField, problems, dialogForm } = useCreateOrEditForm(
    props,
    () => null,
    { validateFields: findPlanProblems },
  );

  return (
    <DialogForm {...dialogForm}>
      <InputField
        id={`${id}-name`}
        label="Name"
        isRequired
        {...bindText('name')}
        placeholder="Pro Monthly"
        maxLength={planLimits.name}
        autoComplete="off"
        autoFocus
      />
      <InputField
        id={`${id}-duration`}
        label="Duration in days (optional)"
        hint="How long a key or subscription of this plan lasts. Leave empty for lifetime."
        // Text, not a number input: a browser empties a number input holding "30d", which
        // would read as lifetime instead of telling the owner what is wrong.
        inputMode="numeric"
        {...bindText('durationDays')}
        placeholder="Lifetime"
        className="w-40"
      />
      <InputField
        id={`${id}-entitlements`}
        label="Entitlements (optional)"
        hint="Codes your program checks for, such as PRO or EXPORT_PDF: letters, digits and _, separated by commas or spaces."
        {...bindText('entitlements')}
        placeholder="PRO, EXPORT_PDF"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        className="font-mono"
      />
      <InputField
        id={`${id}-max-devices`}
        label="Device limit (optional)"
        hint="Devices each holder may bind under HWID lock, when more than the application allows. Leave empty to keep the application's limit."
        // Text, as the duration: the owner is told what is wrong with "3x" instead of losing it.
        inputMode="numeric"
        {...bindText('maxDevices')}
        autoComplete="off"
        className="w-40"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id={`${id}-updates`}
          label="Updates in days (optional)"
          hint="Releases a holder gets: those published within this many days. Leave empty for every release."
          // Text, as the duration.
          inputMode="numeric"
          {...bindText('updatesForDays')}
          placeholder="Every release"
          autoComplete="off"
        />
        <FormField
          htmlFor={`${id}-updates-from`}
          label="Updates counted from"
          hint="Renewing adds the days again."
        >
          <OptionSelect
            id={`${id}-updates-from`}
            value={fields.updatesFrom}
            onValueChange={(updatesFrom) => setField('updatesFrom', updatesFrom)}
            options={labelledOptions(updatesFromSchema.options, UPDATES_FROM_LABELS)}
            aria-describedby={`${id}-updates-from-hint`}
          />
        </FormField>
      </div>
      <div className="grid gap-4 rounded-lg border border-border p-4">
        <SwitchField
          id={`${id}-floating`}
          label="Floating seats"
          hint="A holder may run the program on this many computers at once, any of them: each sign-in takes a seat, and signing out frees it."
          checked={fields.floating}
          onCheckedChange={(floating) => setField('floating', floating)}
        />
        {fields.floating ? (
          <div className="grid gap-4 sm:grid-cols-3">
            <InputField
              id={`${id}-seats`}
              label="Seats"
              isRequired
              inputMode="numeric"
              autoComplete="off"
              {...bindText('seats')}
            />
            <InputField
              id={`${id}-lease`}
              label="Lease in minutes"
              hint="A seat stays taken this long after its program stops."
              inputMode="numeric"
              autoComplete="off"
              {...bindText('leaseMinutes')}
            />
            <InputField
              id={`${id}-borrow`}
              label="Borrow up to days"
              hint="A computer may take its seat offline this long; 0 for never."
              inputMode="numeric"
              autoComplete="off"
              {...bindText('maxBorrowDays')}
            />
          </div>
        ) : null}
      </div>
      <PlanMetersField
        id={`${id}-meters`}
        meters={fields.meters}
        onChange={(meters) => setField('meters', meters)}
        problem={problems.meters ?? null}
      />
      <TextareaField
        id={`${id}-description`}
        label="Description (optional)"
        {...bindText('description')}
        placeholder="What does this plan include?"
        maxLength={planLimits.description}
        rows={3}
      />
    </DialogForm>
  );
}
