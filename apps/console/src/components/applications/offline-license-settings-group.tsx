import { InputField } from '@/components/ui/form-field.tsx';
import type { OfflineLicenseSettingsFields } from './offline-license-settings.ts';
import { SettingsGroup } from './settings-group.tsx';

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
    <SettingsGroup
      id={id}
      title="Offline licences"
      description="How long your program may run without reaching Latchkey, on a licence it checked out."
      problem={problem}
    >
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
    </SettingsGroup>
  );
}
