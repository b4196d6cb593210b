import {
  endUserPasswordProblem,
  type Application,
  type AppUser,
  type AppUserListRow,
} from '@latchkey/contracts';
import { useId, useState } from 'react';
import { DialogForm, FormDialog, useMutationForm } from '@/components/ui/form-dialog.tsx';
import { InputField } from '@/components/ui/form-field.tsx';
import { useUpdateAppUser } from '@/hooks/use-app-users.ts';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useEndUserPasswordMinLength } from '@/hooks/use-end-user-password-min-length.ts';
import {
  fromDateTimeLocalValue,
  getAppUserStatus,
  getSettableAppUserStatus,
  toAppUserStatusFlags,
  toDateTimeLocalValue,
  type SettableAppUserStatus,
} from './app-user-display.ts';
import { AppUserStatusBadge } from './app-user-status-badge.tsx';
import { AppUserStatusField } from './app-user-status-field.tsx';
import { bindAppUserFields, type AppUserTextField } from './bind-app-user-fields.ts';
import {
  EmailVerificationStatus,
  emailVerificationDescription,
  emailVerificationState,
} from './email-verification-status.tsx';
import { SendPasswordResetButton } from './send-password-reset-button.tsx';
import { UserDevicesSection } from './user-devices-section.tsx';
import { UserMetersSection } from './user-meters-section.tsx';
import { UserSubscriptionsSection } from './user-subscriptions-section.tsx';
import { UserVariablesSection } from './user-variables-section.tsx';

/** The heading of the Edit User dialog's part whose changes are saved one by one. */
export const APPLIED_AT_ONCE_HEADING = 'These apply at once';
export const APPLIED_AT_ONCE_NOTE =
  'Each change below is saved as soon as you make it. Save Changes covers only the fields above.';

/** The text fields the edit form has; a HWID is not one of them. */
type EditAppUserTextField = Exclude<AppUserTextField, 'hwid'>;

interface EditAppUserFields {
  username: string;
  email: string;
  expiresAt: string;
  status: SettableAppUserStatus;
  /** A new password; empty keeps the current one. */
  password?: string;
}

function toFields(user: AppUser): EditAppUserFields {
  return {
    username: user.username,
    email: user.email ?? '',
    expiresAt: toDateTimeLocalValue(user.expiresAt),
    status: getSettableAppUserStatus(user),
  };
}

/**
 * The edit body: the account's fields every time, an empty expiry meaning never, the status
 * as the server's flags. A new password is sent only when one is typed (as typed: spaces can
 * be part of it). The HWID is never sent: without it the server leaves the user's devices as
 * the Devices section last left them.
 */
export function toUpdateAppUserRequest(fields: EditAppUserFields) {
  return {
    ...(fields.password ? { password: fields.password } : {}),
    username: fields.username.trim(),
    email: fields.email.trim() || null,
    ...toAppUserStatusFlags(fields.status),
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

/**
 * The account's fields, sent together by Save Changes, and below them, set apart, what the user
 * holds (devices, subscriptions, variables), whose every change is saved on its own at once.
 * The holdings stay outside the form, so Save Changes and Enter in a field send only the
 * fields above them.
 */
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
  const { fields, setField, dialogForm } = useMutationForm({
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
  const appUserField = bindAppUserFields<EditAppUserTextField>(id, fields, setField);
  // Mark Verified is saved at once: the dialog keeps the answer, the list re-reads its own.
  const [savedEmail, setSavedEmail] = useState(() => ({
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
  }));
  const emailState = emailVerificationState(savedEmail, fields.email);

  return (
    <>
      <DialogForm
        title="Edit User"
        description={`Account details and access of ${user.username}.`}
        submitLabel="Save Changes"
        {...dialogForm}
      >
        <p
          data-testid="edit-user-status"
          className="flex items-center gap-2 text-sm text-muted-foreground"
        >
          Current status: <AppUserStatusBadge status={getAppUserStatus(user)} />
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField {...appUserField('username')} label="Username" />
          <div className="grid content-start gap-2">
            <InputField
              {...appUserField('email')}
              label="Email"
              aria-describedby={emailVerificationDescription(
                `${id}-email-verification`,
                emailState,
              )}
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
        <AppUserStatusField
          id={`${id}-status`}
          value={fields.status}
          onValueChange={(status) => setField('status', status)}
        />
        <InputField
          {...appUserField('password')}
          label="New Password (optional)"
          hint={`Leave empty to keep the current password. At least ${passwordMinLength} characters.`}
        />
        <SendPasswordResetButton applicationId={applicationId} user={user} />
      </DialogForm>
      <section
        aria-labelledby={`${id}-applied-at-once`}
        className="grid gap-4 border-t border-border pt-4"
      >
        <div className="grid gap-1">
          <h3 id={`${id}-applied-at-once`} className="text-base font-semibold">
            {APPLIED_AT_ONCE_HEADING}
          </h3>
          <p className="text-sm text-muted-foreground">{APPLIED_AT_ONCE_NOTE}</p>
        </div>
        <UserDevicesSection
          applicationId={applicationId}
          userId={user.id}
          username={user.username}
          deviceLimit={user.deviceLimit ?? application.maxDevices}
          isHwidLockEnabled={application.hwidLockEnabled}
        />
        <UserSubscriptionsSection
          applicationId={applicationId}
          userId={user.id}
          username={user.username}
        />
        <UserMetersSection
          applicationId={applicationId}
          userId={user.id}
          username={user.username}
        />
        <UserVariablesSection
          applicationId={applicationId}
          userId={user.id}
          username={user.username}
        />
      </section>
    </>
  );
}
