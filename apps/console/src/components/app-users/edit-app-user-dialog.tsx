import {
  endUserPasswordProblem,
  type Application,
  type AppUser,
  type AppUserListRow,
} from '@latchkey/contracts';
import { useId, useState } from 'react';
import { Checkbox } from '@/components/ui/checkbox.tsx';
import { DialogForm, FormDialog, useMutationForm } from '@/components/ui/form-dialog.tsx';
import { InputField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { useUpdateAppUser } from '@/hooks/use-app-users.ts';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useEndUserPasswordMinLength } from '@/hooks/use-end-user-password-min-length.ts';
import { bindAppUserFields } from './bind-app-user-fields.ts';
import {
  EmailVerificationStatus,
  emailVerificationDescription,
  emailVerificationState,
} from './email-verification-status.tsx';
import { SendPasswordResetButton } from './send-password-reset-button.tsx';
import { UserDevicesSection } from './user-devices-section.tsx';
import { UserSubscriptionsSection } from './user-subscriptions-section.tsx';
import { UserVariablesSection } from './user-variables-section.tsx';
import { fromDateTimeLocalValue, toDateTimeLocalValue } from './app-user-display.ts';

interface EditAppUserFields {
  username: string;
  email: string;
  expiresAt: string;
  hwid: string;
  isActive: boolean;
  isPaused: boolean;
  /** A new password; empty keeps the current one. */
  password?: string;
}

function toFields(user: AppUser): EditAppUserFields {
  return {
    username: user.username,
    email: user.email ?? '',
    expiresAt: toDateTimeLocalValue(user.expiresAt),
    hwid: user.hwid ?? '',
    isActive: user.isActive,
    isPaused: user.isPaused,
  };
}

/**
 * The edit body, every field every time; an empty HWID resets it, an empty expiry means never.
 * A new password is sent only when one is typed (as typed: spaces can be part of it).
 */
export function toUpdateAppUserRequest(fields: EditAppUserFields) {
  return {
    ...(fields.password ? { password: fields.password } : {}),
    username: fields.username.trim(),
    email: fields.email.trim() || null,
    isActive: fields.isActive,
    isPaused: fields.isPaused,
    hwid: fields.hwid.trim() || null,
    expiresAt: fromDateTimeLocalValue(fields.expiresAt),
  };
}

/** The user to edit; a users-list row also says how many devices they may bind. */
type EditedAppUser = AppUser & Partial<Pick<AppUserListRow, 'deviceLimit'>>;

/** The Edit User dialog. */
export function EditAppUserDialog({
  application,
  user,
  ...openState
}: DialogOpenState & {
  application: Application;
  user: EditedAppUser | null;
}) {
  return (
    <FormDialog {...openState} className="sm:max-w-2xl">
      {(close) =>
        user && (
          <EditAppUserForm key={user.id} application={application} user={user} onDone={close} />
        )
      }
    </FormDialog>
  );
}

function EditAppUserForm({
  application,
  user,
  onDone,
}: {
  application: Application;
  user: EditedAppUser;
  onDone: () => void;
}) {
  const id = useId();
  const applicationId = application.id;
  const updateAppUser = useUpdateAppUser();
  const passwordMinLength = useEndUserPasswordMinLength();
  const { fields, setField, bindChecked, dialogForm } = useMutationForm({
    initialFields: () => toFields(user),
    // Only a new password is checked: an empty one keeps the current password.
    validate: ({ password }) =>
      password ? endUserPasswordProblem(password, passwordMinLength) : null,
    mutation: updateAppUser,
    toRequest: (changes) => ({
      applicationId,
      userId: user.id,
      changes: toUpdateAppUserRequest(changes),
    }),
    onDone,
  });
  const appUserField = bindAppUserFields(id, fields, setField);
  // Mark Verified is saved at once: the dialog keeps the answer, the list re-reads its own.
  const [savedEmail, setSavedEmail] = useState(() => ({
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
  }));
  const emailState = emailVerificationState(savedEmail, fields.email);

  // The Hardware ID field shows the user's first device. A removal in the Devices section
  // changes that on the server at once; the field follows it (unless the owner typed another
  // HWID), so that Save Changes does not bind the removed device again.
  const [firstDeviceHwid, setFirstDeviceHwid] = useState(user.hwid ?? '');
  const followDevicesReleased = (firstHwid: string | null) => {
    if (fields.hwid.trim() === firstDeviceHwid) setField('hwid', firstHwid ?? '');
    setFirstDeviceHwid(firstHwid ?? '');
  };

  return (
    <DialogForm
      title="Edit User"
      description={`Account details and access of ${user.username}.`}
      submitLabel="Save Changes"
      {...dialogForm}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField {...appUserField('username')} label="Username" />
        <div className="grid content-start gap-2">
          <InputField
            {...appUserField('email')}
            label="Email"
            aria-describedby={emailVerificationDescription(`${id}-email-verification`, emailState)}
          />
          <EmailVerificationStatus
            id={`${id}-email-verification`}
            fieldId={appUserField('email').id}
            applicationId={applicationId}
            user={savedEmail}
            typedEmail={fields.email}
            isVerificationRequired={application.requireVerifiedEmail}
            onVerified={setSavedEmail}
          />
        </div>
      </div>
      <InputField
        {...appUserField('expiresAt')}
        label="Expires At"
        hint="In your local time. Leave empty for an account that never expires."
      />
      <InputField
        {...appUserField('hwid')}
        label="Hardware ID"
        hint="Leave empty to reset it: the next login binds whichever device it comes from."
        className="font-mono"
      />
      <InputField
        {...appUserField('password')}
        label="New Password (optional)"
        hint={`Leave empty to keep the current password. At least ${passwordMinLength} characters.`}
      />
      <SendPasswordResetButton applicationId={applicationId} user={user} />
      <div className="flex flex-wrap gap-6">
        <Label htmlFor={`${id}-active`} className="cursor-pointer">
          <Checkbox id={`${id}-active`} {...bindChecked('isActive')} />
          Active
        </Label>
        <Label htmlFor={`${id}-paused`} className="cursor-pointer">
          <Checkbox id={`${id}-paused`} {...bindChecked('isPaused')} />
          Paused
        </Label>
      </div>
      <UserDevicesSection
        applicationId={applicationId}
        userId={user.id}
        username={user.username}
        deviceLimit={user.deviceLimit ?? application.maxDevices}
        isHwidLockEnabled={application.hwidLockEnabled}
        onDevicesReleased={followDevicesReleased}
      />
      <UserSubscriptionsSection
        applicationId={applicationId}
        userId={user.id}
        username={user.username}
      />
      <UserVariablesSection
        applicationId={applicationId}
        userId={user.id}
        username={user.username}
      />
    </DialogForm>
  );
}
