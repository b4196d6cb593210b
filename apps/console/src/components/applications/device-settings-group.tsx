import { InputField, SwitchField } from '@/components/ui/form-field.tsx';
import type { DeviceSettingsFields } from './device-settings.ts';
import { SettingsGroup } from './settings-group.tsx';

/** The Devices group of the Settings dialog. */
export function DeviceSettingsGroup({
  formId,
  fields,
  problems,
  onChange,
}: {
  formId: string;
  fields: DeviceSettingsFields;
  /** What stopped the last save, by the request field it is about. */
  problems: Partial<Record<string, string>>;
  onChange: (fields: DeviceSettingsFields) => void;
}) {
  const id = `${formId}-devices`;
  // Text, not number inputs: a browser empties a number input holding "30d", which would read
  // as "never" for the inactivity release instead of telling the owner what is wrong.
  const numberInput = { inputMode: 'numeric', autoComplete: 'off' } as const;

  return (
    <SettingsGroup
      id={id}
      title="Devices"
      description="How many machines each user may use under HWID lock, and how a seat is freed."
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id={`${id}-max-devices`}
          label="Device limit"
          hint="Devices each user may bind under HWID lock; a plan can raise it."
          {...numberInput}
          value={fields.maxDevices}
          onValueChange={(value) => onChange({ ...fields, maxDevices: value })}
          problem={problems.maxDevices}
        />
        <InputField
          id={`${id}-release-inactive`}
          label="Release inactive devices after (days)"
          hint="A device not seen for this long gives its seat to a new one. Leave empty for never."
          {...numberInput}
          value={fields.releaseInactiveAfterDays}
          onValueChange={(value) => onChange({ ...fields, releaseInactiveAfterDays: value })}
          placeholder="Never"
          problem={problems.releaseInactiveAfterDays}
        />
      </div>
      <SwitchField
        id={`${id}-self-service-reset`}
        label="Self-service reset"
        hint="Let users release their own devices from your program, at most once per cooldown."
        checked={fields.selfServiceReset}
        onCheckedChange={(checked) => onChange({ ...fields, selfServiceReset: checked })}
      />
      <InputField
        id={`${id}-reset-cooldown`}
        label="Reset cooldown (hours)"
        hint="Time between two self-service resets of one user: 0 means no cooldown; 168 is 7 days."
        {...numberInput}
        value={fields.resetCooldownHours}
        onValueChange={(value) => onChange({ ...fields, resetCooldownHours: value })}
        problem={problems.resetCooldownHours}
        className="w-40"
      />
    </SettingsGroup>
  );
}
