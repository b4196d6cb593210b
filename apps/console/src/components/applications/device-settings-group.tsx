import { FormError, InputField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import type { DeviceSettingsFields, DeviceSettingsProblem } from './device-settings.ts';

/**
 * The Devices group of the Settings dialog. Its problem is shown here, beside its fields at
 * the end of a long dialog, rather than above the form where a phone would not show it.
 */
export function DeviceSettingsGroup({
  formId,
  fields,
  problem,
  onChange,
}: {
  formId: string;
  fields: DeviceSettingsFields;
  /** The problem that stopped the last submit, or null. */
  problem: DeviceSettingsProblem | null;
  onChange: (fields: DeviceSettingsFields) => void;
}) {
  const id = `${formId}-devices`;
  const isInvalid = (field: keyof DeviceSettingsFields) =>
    problem?.field === field ? true : undefined;
  // Text, not number inputs: a browser empties a number input holding "30d", which would read
  // as "never" for the inactivity release instead of telling the owner what is wrong.
  const numberInput = { inputMode: 'numeric', autoComplete: 'off' } as const;

  return (
    <div
      role="group"
      aria-labelledby={`${id}-heading`}
      className="grid gap-4 rounded-lg border border-border p-4"
    >
      <div className="grid gap-1">
        <h3 id={`${id}-heading`} className="text-sm font-semibold">
          Devices
        </h3>
        <p className="text-sm text-muted-foreground">
          How many machines each user may use under HWID lock, and how a seat is freed.
        </p>
      </div>
      <FormError>{problem?.message}</FormError>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id={`${id}-max-devices`}
          label="Device limit"
          hint="Devices each user may bind under HWID lock; a plan can raise it."
          {...numberInput}
          value={fields.maxDevices}
          onValueChange={(value) => onChange({ ...fields, maxDevices: value })}
          aria-invalid={isInvalid('maxDevices')}
        />
        <InputField
          id={`${id}-release-inactive`}
          label="Release inactive devices after (days)"
          hint="A device not seen for this long gives its seat to a new one. Leave empty for never."
          {...numberInput}
          value={fields.releaseInactiveAfterDays}
          onValueChange={(value) => onChange({ ...fields, releaseInactiveAfterDays: value })}
          placeholder="Never"
          aria-invalid={isInvalid('releaseInactiveAfterDays')}
        />
      </div>
      <div className="flex items-center justify-between gap-4">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-self-service-reset`}>Self-service reset</Label>
          <p id={`${id}-self-service-reset-hint`} className="text-sm text-muted-foreground">
            Let users release their own devices from your program, at most once per cooldown.
          </p>
        </div>
        <Switch
          id={`${id}-self-service-reset`}
          checked={fields.selfServiceReset}
          onCheckedChange={(checked) => onChange({ ...fields, selfServiceReset: checked })}
          aria-describedby={`${id}-self-service-reset-hint`}
        />
      </div>
      <InputField
        id={`${id}-reset-cooldown`}
        label="Reset cooldown (hours)"
        hint="Time between two self-service resets of one user: 0 means no cooldown; 168 is 7 days."
        {...numberInput}
        value={fields.resetCooldownHours}
        onValueChange={(value) => onChange({ ...fields, resetCooldownHours: value })}
        aria-invalid={isInvalid('resetCooldownHours')}
        className="w-40"
      />
    </div>
  );
}
