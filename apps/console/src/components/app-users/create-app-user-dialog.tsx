import {
  createAppUserRequestSchema,
  endUserPasswordProblem,
  USERNAME_AND_PASSWORD_REQUIRED,
} from '@latchkey/contracts';
import { UserPlus } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { DialogForm, FormDialog, useMutationForm } from '@/components/ui/form-dialog.tsx';
import { InputField } from '@/components/ui/form-field.tsx';
import { useCreateAppUser } from '@/hooks/use-app-users.ts';
import { useEndUserPasswordMinLength } from '@/hooks/use-end-user-password-min-length.ts';
import { contractProblems } from '@/lib/first-problem.ts';
import { bindAppUserFields } from './bind-app-user-fields.ts';
import { fromDateTimeLocalValue } from './app-user-display.ts';

/** The dashboard requires an e-mail too; the management page does not. */
export const ALL_REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';

export type CreateAppUserVariant = 'dashboard' | 'application';

const TITLES: Record<CreateAppUserVariant, string> = {
  dashboard: 'Add User',
  application: 'Create New User',
};

export interface CreateAppUserFields {
  username: string;
  email: string;
  password: string;
  expiresAt: string;
  hwid: string;
}

/**
 * Each field's problem, all at once, empty when the user may be created: the required message
 * at each required field left blank (a password of only spaces counts as blank), the
 * installation's password rule (minimum length) at the password, and the rest in the words of
 * the contract the server checks the request with (an e-mail that is not one, a HWID too long).
 */
export function findCreateAppUserProblems(
  fields: CreateAppUserFields,
  variant: CreateAppUserVariant,
  passwordMinLength: number,
): Partial<Record<string, string>> {
  // The contract's "fill in username and password" is said of the whole request: the fields
  // left blank are marked below instead.
  const { '': _required, ...problems } = contractProblems(
    createAppUserRequestSchema,
    toCreateAppUserRequest(fields),
  );
  const required =
    variant === 'dashboard' ? ALL_REQUIRED_FIELDS_MESSAGE : USERNAME_AND_PASSWORD_REQUIRED;
  if (fields.username.trim() === '') problems.username = required;
  if (variant === 'dashboard' && fields.email.trim() === '') problems.email = required;
  if (fields.password.trim() === '') problems.password = required;
  const passwordProblem = endUserPasswordProblem(fields.password, passwordMinLength);
  if (passwordProblem) problems.password ??= passwordProblem;
  return problems;
}

/** expiresAt (as ISO) and hwid are sent only when filled in. */
export function toCreateAppUserRequest(fields: CreateAppUserFields) {
  const expiresAt = fromDateTimeLocalValue(fields.expiresAt);
  const hwid = fields.hwid.trim();
  return {
    username: fields.username.trim(),
    email: fields.email.trim() || null,
    // As typed: spaces can be part of a password.
    password: fields.password,
    ...(expiresAt ? { expiresAt } : {}),
    ...(hwid ? { hwid } : {}),
  };
}

export function CreateAppUserDialog({
  applicationId,
  applicationName,
  variant,
  trigger,
}: {
  applicationId: number | null;
  applicationName?: string;
  variant: CreateAppUserVariant;
  trigger?: ReactNode;
}) {
  return (
    <FormDialog trigger={trigger} triggerIcon={UserPlus} triggerLabel="Add User">
      {(close) => (
        <CreateAppUserForm
          applicationId={applicationId}
          applicationName={applicationName}
          variant={variant}
          onDone={close}
        />
      )}
    </FormDialog>
  );
}

const EMPTY_CREATE_APP_USER_FIELDS: CreateAppUserFields = {
  username: '',
  email: '',
  password: '',
  expiresAt: '',
  hwid: '',
};

function CreateAppUserForm({
  applicationId,
  applicationName,
  variant,
  onDone,
}: {
  applicationId: number | null;
  applicationName?: string;
  variant: CreateAppUserVariant;
  onDone: () => void;
}) {
  const id = useId();
  const createAppUser = useCreateAppUser();
  const passwordMinLength = useEndUserPasswordMinLength();
  const isEmailRequired = variant === 'dashboard';
  // Every problem at its field, all at once; a refusal at the field of the request it names.
  const { fields, setField, problems, dialogForm } = useMutationForm({
    initialFields: EMPTY_CREATE_APP_USER_FIELDS,
    validateFields: (user) => findCreateAppUserProblems(user, variant, passwordMinLength),
    mutation: createAppUser,
    toRequest: (user) => ({ applicationId, user: toCreateAppUserRequest(user) }),
    onDone,
  });
  const boundField = bindAppUserFields(id, fields, setField);
  const appUserField = (name: keyof CreateAppUserFields) => ({
    ...boundField(name),
    problem: problems[name],
  });

  return (
    <DialogForm
      title={TITLES[variant]}
      description={
        applicationName
          ? `A new end user of ${applicationName}. They sign in from your program.`
          : 'A new end user. They sign in from your program.'
      }
      submitLabel="Create User"
      {...dialogForm}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField {...appUserField('username')} label="Username" isRequired autoFocus />
        <InputField
          {...appUserField('email')}
          label={isEmailRequired ? 'Email' : 'Email (optional)'}
          isRequired={isEmailRequired}
        />
      </div>
      <InputField
        {...appUserField('password')}
        label="Password"
        isRequired
        hint={`At least ${passwordMinLength} characters.`}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          {...appUserField('expiresAt')}
          label="Expires At (optional)"
          hint="Leave empty for an account that never expires."
        />
        <InputField
          {...appUserField('hwid')}
          label="HWID (optional)"
          hint="Binds the user to one device now, instead of at first login."
        />
      </div>
    </DialogForm>
  );
}
