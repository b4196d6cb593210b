import { appUserLimits } from '@latchkey/contracts';
import type { ComponentProps } from 'react';

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
 * The text fields of one end-user form: `field(name)` gives an InputField that field's id
 * (under `formId`), its input from INPUTS, its value and its change handler; the label and
 * hint, which differ between creating and editing, come from the form. A form binds only the
 * fields it has (the edit form has no HWID: its Devices section is the truth about those).
 */
export function bindAppUserFields<Name extends AppUserTextField>(
  formId: string,
  values: Partial<Record<Name, string>>,
  onChange: (name: Name, value: string) => void,
) {
  return (name: Name) => {
    const { idSuffix, ...input } = INPUTS[name];
    return {
      id: `${formId}-${idSuffix}`,
      ...input,
      value: values[name] ?? '',
      onValueChange: (value: string) => onChange(name, value),
    };
  };
}
