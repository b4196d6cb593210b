import { planLimits, type Plan } from '@latchkey/contracts';
import { useId, type ReactNode } from 'react';
import {
  CreateFormDialog,
  DialogForm,
  EditFormDialog,
  type CreateOrEditFormProps,
} from '@/components/ui/form-dialog.tsx';
import { InputField, TextareaField } from '@/components/ui/form-field.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useFormFields } from '@/hooks/use-form-fields.ts';
import { useCreatePlan, useUpdatePlan } from '@/hooks/use-plans.ts';
import {
  EMPTY_PLAN_FIELDS,
  toPlanFields,
  toPlanRequest,
  validatePlan,
  type PlanFields,
} from './plan-display.ts';

/** The Create Plan dialog, opened from its own button. */
export function CreatePlanDialog({
  applicationId,
  applicationName,
  trigger,
}: {
  applicationId: number;
  applicationName: string;
  trigger?: ReactNode;
}) {
  const createPlan = useCreatePlan(applicationId);

  return (
    <CreateFormDialog
      label="Create Plan"
      trigger={trigger}
      description={`A plan of ${applicationName}: how long a licence key lasts and what it unlocks.`}
      initialFields={EMPTY_PLAN_FIELDS}
      mutation={createPlan}
      toRequest={toPlanRequest}
    >
      {(form) => <PlanForm {...form} />}
    </CreateFormDialog>
  );
}

/** The Edit Plan dialog, for the plan a row asked for. */
export function EditPlanDialog({
  applicationId,
  plan,
  ...openState
}: DialogOpenState & {
  applicationId: number;
  plan: Plan | null;
}) {
  const updatePlan = useUpdatePlan(applicationId);

  return (
    <EditFormDialog
      item={plan}
      {...openState}
      title="Edit Plan"
      description="Keys and subscriptions already granted keep what they were given; changes apply to new ones."
      toFields={toPlanFields}
      mutation={updatePlan}
      toRequest={(fields, { id }) => ({ planId: id, changes: toPlanRequest(fields) })}
    >
      {(form) => <PlanForm {...form} />}
    </EditFormDialog>
  );
}

function PlanForm({ initialFields, onSubmit, ...dialogForm }: CreateOrEditFormProps<PlanFields>) {
  const id = useId();
  const { bindText, validationError, submit } = useFormFields({
    initialFields,
    validate: validatePlan,
    onValidSubmit: onSubmit,
  });

  return (
    <DialogForm {...dialogForm} validationError={validationError} onSubmit={submit}>
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
