import { variableLimits, type ApplicationVariable } from '@latchkey/contracts';
import { Plus } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import {
  DialogForm,
  FormDialog,
  type CreateOrEditFormProps,
} from '@/components/ui/form-dialog.tsx';
import { InputField, TextareaField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
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
    <FormDialog
      trigger={
        trigger ?? (
          <Button>
            <Plus aria-hidden="true" />
            Create Variable
          </Button>
        )
      }
    >
      {(close) => (
        <VariableForm
          title="Create Variable"
          description={`A value ${applicationName} reads at run time with POST /api/v1/var.`}
          submitLabel="Create Variable"
          initialFields={EMPTY_VARIABLE_FIELDS}
          isSubmitting={createVariable.isPending}
          onSubmit={(fields) =>
            createVariable.mutate(toVariableRequest(fields), { onSuccess: close })
          }
          onCancel={close}
        />
      )}
    </FormDialog>
  );
}

/** The Edit Variable dialog, for the variable a row asked for. */
export function EditVariableDialog({
  applicationId,
  variable,
  open,
  onOpenChange,
}: {
  applicationId: number;
  variable: ApplicationVariable | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const updateVariable = useUpdateVariable(applicationId);

  return (
    <FormDialog open={open} onOpenChange={onOpenChange}>
      {(close) =>
        variable && (
          <VariableForm
            // Reset to the saved values whenever another variable (or a newer save) opens.
            key={`${variable.id}:${variable.updatedAt}`}
            title="Edit Variable"
            description="Programs read the new value from their next call."
            submitLabel="Save Changes"
            initialFields={toVariableFields(variable)}
            isSubmitting={updateVariable.isPending}
            onSubmit={(fields) =>
              updateVariable.mutate(
                { variableId: variable.id, changes: toVariableRequest(fields) },
                { onSuccess: close },
              )
            }
            onCancel={close}
          />
        )
      }
    </FormDialog>
  );
}

function VariableForm({
  initialFields,
  onSubmit,
  ...dialogForm
}: CreateOrEditFormProps<VariableFields>) {
  const id = useId();
  const { fields, setField, validationError, submit } = useFormFields({
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
        value={fields.name}
        onValueChange={(value) => setField('name', value)}
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
        value={fields.value}
        onValueChange={(value) => setField('value', value)}
        placeholder="off"
        spellCheck={false}
        rows={5}
        className="max-h-64 font-mono"
      />
      <div className="grid gap-1">
        <Label htmlFor={`${id}-requires-session`} className="w-fit cursor-pointer">
          <Switch
            id={`${id}-requires-session`}
            checked={fields.requiresSession}
            onCheckedChange={(checked) => setField('requiresSession', checked)}
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
