import {
  licenseKeyCases,
  licenseLimits,
  MAX_LICENSE_KEY_MASK_LENGTH,
  MAX_LICENSE_KEYS_PER_MAIL,
  type GeneratedLicenses,
  type Plan,
} from '@latchkey/contracts';
import { KeyRound } from 'lucide-react';
import { useEffect, useId } from 'react';
import { PlanSelect } from '@/components/plans/plan-select.tsx';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog.tsx';
import { FormField, InputField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import { useFormFields } from '@/hooks/use-form-fields.ts';
import { useGenerateLicenses } from '@/hooks/use-licenses.ts';
import { useMailDelivery } from '@/hooks/use-mail-delivery.ts';
import { cn } from '@/lib/utils.ts';
import {
  describeMaskStrength,
  EMPTY_GENERATE_FIELDS,
  LICENSE_CASE_LABELS,
  toGenerateLicensesRequest,
  validateGenerateLicenses,
} from './license-display.ts';

/** The Generate Keys dialog; the new keys go to `onGenerated`, shown once in full. */
export function GenerateLicensesDialog({
  applicationId,
  plans,
  onGenerated,
}: {
  applicationId: number;
  /** Every plan of the application: archived ones get no new keys and are not offered. */
  plans: readonly Plan[];
  onGenerated: (generated: GeneratedLicenses, plan: Plan) => void;
}) {
  const generate = useGenerateLicenses(applicationId);
  const offeredPlans = plans.filter((plan) => !plan.archived);

  return (
    <FormDialog triggerIcon={KeyRound} triggerLabel="Generate Keys">
      {(close) => (
        <GenerateLicensesForm
          plans={offeredPlans}
          isSubmitting={generate.isPending}
          onCancel={close}
          onSubmit={(request, plan) =>
            generate.mutate(request, {
              onSuccess: (generated) => {
                close();
                onGenerated(generated, plan);
              },
            })
          }
        />
      )}
    </FormDialog>
  );
}

function GenerateLicensesForm({
  plans,
  isSubmitting,
  onSubmit,
  onCancel,
}: {
  plans: readonly Plan[];
  isSubmitting: boolean;
  onSubmit: (request: ReturnType<typeof toGenerateLicensesRequest>, plan: Plan) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const { fields, setField, bindText, validationError, submit } = useFormFields({
    // The first plan on offer, as the select lists them, is chosen already: keys can be
    // generated without touching the select, and the owner changes it only for another plan.
    initialFields: () => ({ ...EMPTY_GENERATE_FIELDS, planId: plans[0]?.id ?? '' }),
    validate: validateGenerateLicenses,
    onValidSubmit: (valid) =>
      onSubmit(
        toGenerateLicensesRequest(valid),
        plans.find((plan) => plan.id === valid.planId)!,
      ),
  });
  // Plans still loading when the dialog opened: the first one is chosen once they arrive.
  const firstPlanId = plans[0]?.id;
  useEffect(() => {
    if (fields.planId === '' && firstPlanId) setField('planId', firstPlanId);
  }, [fields.planId, firstPlanId, setField]);
  const strength = describeMaskStrength(fields.mask, fields.keyCase);
  const canMail = useMailDelivery() !== 'off';

  return (
    <DialogForm
      title="Generate Licence Keys"
      description="Keys of one plan, to sell or hand out. Each key can be redeemed once; its plan's duration starts when it is."
      validationError={validationError}
      submitLabel="Generate Keys"
      isSubmitting={isSubmitting}
      onSubmit={submit}
      onCancel={onCancel}
    >
      {plans.length === 0 ? (
        <p className="rounded-md border border-border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">
          This application has no active plan. Create one in the Plans tab first.
        </p>
      ) : (
        <PlanSelect
          id={`${id}-plan`}
          label="Plan"
          isRequired
          plans={plans}
          value={fields.planId}
          onValueChange={(planId) => setField('planId', planId)}
        />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id={`${id}-count`}
          label="Number of keys"
          hint={`From 1 to ${licenseLimits.generate.toLocaleString('en-US')}.`}
          isRequired
          // Text, not a number input: a browser empties a number input holding "10k".
          inputMode="numeric"
          {...bindText('count')}
          autoComplete="off"
        />
        <FormField htmlFor={`${id}-case`} label="Character case">
          <OptionSelect
            id={`${id}-case`}
            value={fields.keyCase}
            onValueChange={(keyCase) => setField('keyCase', keyCase)}
            options={labelledOptions(licenseKeyCases, LICENSE_CASE_LABELS)}
          />
        </FormField>
      </div>
      <FormField htmlFor={`${id}-mask`} label="Mask">
        <Input
          id={`${id}-mask`}
          value={fields.mask}
          onChange={(event) => setField('mask', event.target.value)}
          aria-describedby={`${id}-mask-hint`}
          aria-invalid={!strength.isStrong || undefined}
          maxLength={MAX_LICENSE_KEY_MASK_LENGTH}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
        />
        <p
          id={`${id}-mask-hint`}
          aria-live="polite"
          className={cn(
            'text-xs',
            strength.isStrong ? 'text-muted-foreground' : 'text-destructive',
          )}
        >
          {strength.text}
        </p>
      </FormField>
      <InputField
        id={`${id}-note`}
        label="Note (optional)"
        hint="Shown in the list and searchable: an order number, a shop, a giveaway."
        {...bindText('note')}
        maxLength={licenseLimits.note}
        autoComplete="off"
      />
      <InputField
        id={`${id}-redeem-by`}
        label="Redeem by (optional)"
        hint="After this day an unused key can no longer be redeemed. Leave empty for never."
        type="date"
        {...bindText('redeemBy')}
        className="w-48"
      />
      {canMail && (
        <InputField
          id={`${id}-email-to`}
          label="E-mail the keys to (optional)"
          hint={`The buyer's address: the keys arrive in one mail with how to redeem them (at most ${MAX_LICENSE_KEYS_PER_MAIL}).`}
          type="email"
          autoComplete="off"
          placeholder="buyer@example.com"
          {...bindText('emailTo')}
        />
      )}
    </DialogForm>
  );
}
