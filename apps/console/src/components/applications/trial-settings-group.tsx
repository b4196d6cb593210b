import { InputField } from '@/components/ui/form-field.tsx';
import type { TrialSettingsFields } from './trial-settings.ts';
import { SettingsGroup } from './settings-group.tsx';

/**
 * The Trial group of the Settings dialog: a trial bound to the machine, which a program starts
 * with POST /api/v1/trial. One per machine: reinstalling or making a new account does not start
 * another.
 */
export function TrialSettingsGroup({
  formId,
  fields,
  problems,
  onChange,
}: {
  formId: string;
  fields: TrialSettingsFields;
  /** What stopped the last save, by the request field it is about. */
  problems: Partial<Record<string, string>>;
  onChange: (fields: TrialSettingsFields) => void;
}) {
  const id = `${formId}-trial`;
  return (
    <SettingsGroup
      id={id}
      title="Trial"
      description="A free trial your program can start once per machine: reinstalling or making a new account does not start another."
    >
      <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
        <InputField
          id={`${id}-days`}
          label="Trial days"
          hint="1–365 days. Leave empty to offer no trial."
          inputMode="numeric"
          autoComplete="off"
          value={fields.trialDays}
          onValueChange={(value) => onChange({ ...fields, trialDays: value })}
          problem={problems.trialDays}
          placeholder="No trial"
        />
        <InputField
          id={`${id}-entitlements`}
          label="Trial entitlements"
          hint="What a trial grants, as a plan's entitlements: letters, digits and _, separated by commas or spaces."
          value={fields.trialEntitlements}
          onValueChange={(value) => onChange({ ...fields, trialEntitlements: value })}
          problem={problems.trialEntitlements}
          placeholder="PRO, EXPORT_PDF"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          className="font-mono"
        />
      </div>
    </SettingsGroup>
  );
}
