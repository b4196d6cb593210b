import { appUserLimits } from '@latchkey/contracts';
import type { ComponentProps } from 'react';
import { InputField } from '@/components/ui/form-field.tsx';

export type AppUserTextField = 'username' | 'email' | 'password' | 'expiresAt' | 'hwid';

/** How each end-user field is typed in, the same when creating a user and when editing one. */
const INPUTS: Record<AppUserTextField, { idSuffix: string } & ComponentProps<'input'>> = {
  username: { idSuffix: 'username', maxLength: appUserLimits.username, autoComplete: 'off' },
  email: { idSuffix: 'email', type: 'email', maxLength: appUserLimits.email, autoComplete: 'off' },
  // A browser must not fill in the owner's own password for an end user.
  password: {
    idSuffix: 'password',
    type: 'password',
    maxLength: appUserLimits.password,
    autoComplete: 'new-password',
  },
  // The owner's local time; app-user-display.ts turns it into an instant.
  expiresAt: { idSuffix: 'expires-at', type: 'datetime-local' },
  hwid: { idSuffix: 'hwid', maxLength: appUserLimits.hwid, autoComplete: 'off' },
};

/**
 * One text field of an end-user form: its input comes from INPUTS, its label and hint (which
 * differ between creating and editing) from the form.
 */
export function AppUserInputField({
  formId,
  name,
  values,
  onChange,
  ...field
}: Omit<ComponentProps<typeof InputField>, 'id' | 'name' | 'value' | 'onChange'> & {
  formId: string;
  name: AppUserTextField;
  values: Partial<Record<AppUserTextField, string>>;
  onChange: (name: AppUserTextField, value: string) => void;
}) {
  const { idSuffix, ...input } = INPUTS[name];
  return (
    <InputField
      id={`${formId}-${idSuffix}`}
      {...input}
      value={values[name] ?? ''}
      onValueChange={(value) => onChange(name, value)}
      {...field}
    />
  );
}
