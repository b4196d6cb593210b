import { FormError, InputField } from '@/components/ui/form-field.tsx';
import type { OfflineLicenseSettingsFields } from './offline-license-settings.ts';

/**
 * The Offline licences group of the Settings dialog. The longest licence a program may take
 * with license/checkout: a licence cannot be recalled, so this is the vendor's lever.
 */
export function OfflineLicenseSettingsGroup({
  formId,
  fields,
  problem,
  onChange,
}: {
  formId: string;
  fields: OfflineLicenseSettingsFields;
  /** The problem that stopped the last submit, or null. */
  problem: string | null;
  onChange: (fields: OfflineLicenseSettingsFields) => void;
}) {
  const id = `${formId}-offline`;
  return (
    <div
      role="group"
      aria-labelledby={`${id}-heading`}
      className="grid gap-4 rounded-lg border border-border p-4"
    >
      <div className="grid gap-1">
        <h3 id={`${id}-heading`} className="text-sm font-semibold">
          Offline licences
        </h3>
        <p className="text-sm text-muted-foreground">
          How long your program may run without reaching Latchkey, on a licence it checked out.
        </p>
      </div>
      <FormError>{problem}</FormError>
      <InputField
        id={`${id}-max-days`}
        label="Max offline days"
        hint="The longest licence a program may take (1–365 days). An issued licence cannot be recalled: pausing or deleting the user stops only the next one."
        inputMode="numeric"
        autoComplete="off"
        value={fields.maxOfflineDays}
        onValueChange={(value) => onChange({ ...fields, maxOfflineDays: value })}
        aria-invalid={problem === null ? undefined : true}
        className="w-40"
      />
    </div>
  );
}
