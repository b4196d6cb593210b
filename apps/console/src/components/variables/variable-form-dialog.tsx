import { variableLimits, type ApplicationVariable } from '@latchkey/contracts';
import { useId, type ReactNode } from 'react';
import {
  CreateFormDialog,
  DialogForm,
  EditFormDialog,
  type CreateOrEditFormProps,
} from '@/components/ui/form-dialog.tsx';
import { InputField, TextareaField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useFormFields } from '@/hooks/use-form-fields.ts';
import { useCreateVariable, useUpdateVariable } from '@/hooks/use-variables.ts';
import {
  EMPTY_VARIABLE_FIELDS,
  formatValueSize,
  toVariableFields,
  toVariableRequest,
  validateVariable,
  type VariableFields,
} from './variable-display.ts';

/** The Create Variable dialog, opened from its own button. */
export function CreateVariableDialog({
  applicationId,
  applicationName,
  trigger,
}: {
  applicationId: number;
  applicationName: string;
  trigger?: ReactNode;
}) {
  const createVariable = useCreateVariable(applicationId);

  return (
    <CreateFormDialog
      label="Create Variable"
      trigger={trigger}
      description={`A value ${applicationName} reads at run time with POST /api/v1/var.`}
      initialFields={EMPTY_VARIABLE_FIELDS}
      mutation={createVariable}
      toRequest={toVariableRequest}
    >
      {(form) => <VariableForm {...form} />}
    </CreateFormDialog>
  );
}

/** The Edit Variable dialog, for the variable a row asked for. */
export function EditVariableDialog({
  applicationId,
  variable,
  ...openState
}: DialogOpenState & {
  applicationId: number;
  variable: ApplicationVariable | null;
}) {
  const updateVariable = useUpdateVariable(applicationId);

  return (
    <EditFormDialog
      item={variable}
      {...openState}
      title="Edit Variable"
      description="Programs read the new value from their next call."
      toFields={toVariableFields}
      mutation={updateVariable}
      toRequest={(fields, { id }) => ({ variableId: id, changes: toVariableRequest(fields) })}
    >
      {(form) => <VariableForm {...form} />}
    </EditFormDialog>
  );
}

function VariableForm({
  initialFields,
  onSubmit,
  ...dialogForm
}: CreateOrEditFormProps<VariableFields>) {
  const id = useId();
  const { fields, bindText, bindChecked, validationError, submit } = useFormFields({
    initialFields,
    validate: validateVariable,
    onValidSubmit: onSubmit,
  });

  return (
    <DialogForm {...dialogForm} validationError={validationError} onSubmit={submit}>
      <InputField
        id={`${id}-name`}
        label="Name"
        isRequired
        hint="Letters, digits, _, . or -, up to 64 characters; your program asks for it by this name."
        {...bindText('name')}
        placeholder="kill_switch"
        maxLength={variableLimits.name}
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
        autoFocus
      />
      <TextareaField
        id={`${id}-value`}
        label="Value"
        hint={formatValueSize(fields.value, variableLimits.applicationValueBytes)}
        {...bindText('value')}
        placeholder="off"
        spellCheck={false}
        rows={5}
        className="max-h-64 font-mono"
      />
      <div className="grid gap-1">
        <Label htmlFor={`${id}-requires-session`} className="w-fit cursor-pointer">
          <Switch
            id={`${id}-requires-session`}
            {...bindChecked('requiresSession')}
            aria-describedby={`${id}-requires-session-hint`}
          />
          Requires session
        </Label>
        <p id={`${id}-requires-session-hint`} className="text-xs text-muted-foreground">
          On: only a program with a live session (a logged-in user) may read it. Off: any copy of
          your program may.
        </p>
      </div>
    </DialogForm>
  );
}
