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
import { FieldProblem, FormField, InputField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import { useFormFields } from '@/hooks/use-form-fields.ts';
import { useGenerateLicenses } from '@/hooks/use-licenses.ts';
import { useMailDelivery } from '@/hooks/use-mail-delivery.ts';
import { cn } from '@/lib/utils.ts';
import {
  describeMaskStrength,
  EMPTY_GENERATE_FIELDS,
  findGenerateLicensesProblems,
  generateLicensesFieldOf,
  LICENSE_CASE_LABELS,
  toGenerateLicensesRequest,
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
          onSubmit={(request, plan, onRefused) =>
            generate.mutate(request, {
              onError: onRefused,
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
  /** Sends the request; `onRefused` is given the error when the server refuses it. */
  onSubmit: (
    request: ReturnType<typeof toGenerateLicensesRequest>,
    plan: Plan,
    onRefused: (error: unknown) => void,
  ) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const { fields, setField, bindText, problems, validationError, submit, refuse, formRef } =
    useFormFields({
      // The first plan on offer, as the select lists them, is chosen already: keys can be
      // generated without touching the select, and the owner changes it only for another plan.
      initialFields: () => ({ ...EMPTY_GENERATE_FIELDS, planId: plans[0]?.id ?? '' }),
      // Every problem at its field, all at once. With no plan on offer there is no select to
      // mark: "choose a plan" is then the form's message, beside the note saying why.
      validateFields: (candidate) => {
        const { planId: planProblem, ...found } = findGenerateLicensesProblems(candidate);
        if (planProblem === undefined) return found;
        return plans.length === 0
          ? { ...found, '': planProblem }
          : { ...found, planId: planProblem };
      },
      fieldOfPath: generateLicensesFieldOf,
      onValidSubmit: (valid) =>
        onSubmit(
          toGenerateLicensesRequest(valid),
          plans.find((plan) => plan.id === valid.planId)!,
          refuse,
        ),
    });
  // Plans still loading when the dialog opened: the first one is chosen once they arrive.
  const firstPlanId = plans[0]?.id;
  useEffect(() => {
    if (fields.planId === '' && firstPlanId) setField('planId', firstPlanId);
  }, [fields.planId, firstPlanId, setField]);
  const strength = describeMaskStrength(fields.mask, fields.keyCase);
  const maskProblem = problems.mask;
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
      formRef={formRef}
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
          problem={problems.planId}
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
          aria-describedby={maskProblem ? `${id}-mask-problem` : `${id}-mask-hint`}
          aria-invalid={!strength.isStrong || Boolean(maskProblem) || undefined}
          maxLength={MAX_LICENSE_KEY_MASK_LENGTH}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
        />
        {/* One line of words below the mask: what the last Generate found wrong with it, else
            its strength as it is typed (the same words when it is too weak). */}
        {maskProblem ? (
          <FieldProblem id={`${id}-mask-problem`}>{maskProblem}</FieldProblem>
        ) : (
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
        )}
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
