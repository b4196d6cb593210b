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
  problems,
  onChange,
}: {
  formId: string;
  fields: OfflineLicenseSettingsFields;
  /** What stopped the last save, by the request field it is about. */
  problems: Partial<Record<string, string>>;
  onChange: (fields: OfflineLicenseSettingsFields) => void;
}) {
  const id = `${formId}-offline`;
  return (
    <SettingsGroup
      id={id}
      title="Offline licences"
      description="How long your program may run without reaching Latchkey, on a licence it checked out."
    >
      <InputField
        id={`${id}-max-days`}
        label="Max offline days"
        hint="The longest licence a program may take (1–365 days). An issued licence cannot be recalled: pausing or deleting the user stops only the next one."
        inputMode="numeric"
        autoComplete="off"
        value={fields.maxOfflineDays}
        onValueChange={(value) => onChange({ ...fields, maxOfflineDays: value })}
        problem={problems.maxOfflineDays}
        className="w-40"
      />
    </SettingsGroup>
  );
}
