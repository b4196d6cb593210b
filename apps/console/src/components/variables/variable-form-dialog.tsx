import { variableLimits, type ApplicationVariable } from '@latchkey/contracts';
import { useId } from 'react';
import {
  DialogForm,
  defineApplicationItemDialogs,
  useCreateOrEditForm,
  type CreateOrEditFormProps,
} from '@/components/ui/form-dialog.tsx';
import { InputField, TextareaField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { useCreateVariable, useUpdateVariable } from '@/hooks/use-variables.ts';
import {
  EMPTY_VARIABLE_FIELDS,
  formatValueSize,
  toVariableFields,
  toVariableRequest,
  findVariableProblems,
  type VariableFields,
} from './variable-display.ts';

/** The Create Variable dialog (opened from its own button) and the Edit Variable dialog (from a row). */
export const { CreateItemDialog: CreateVariableDialog, EditItemDialog: EditVariableDialog } =
  defineApplicationItemDialogs({
    noun: 'Variable',
    createDescription: (applicationName) =>
      `A value ${applicationName} reads at run time with POST /api/v1/var.`,
    editDescription: 'Programs read the new value from their next call.',
    emptyFields: EMPTY_VARIABLE_FIELDS,
    toFields: toVariableFields,
    toRequest: toVariableRequest,
    toUpdate: (variable: ApplicationVariable, changes) => ({ variableId: variable.id, changes }),
    useCreate: useCreateVariable,
    useUpdate: useUpdateVariable,
    Form: VariableForm,
  });

function VariableForm(props: CreateOrEditFormProps<VariableFields>) {
  const id = useId();
  const { fields, bindText, bindChecked, dialogForm } = useCreateOrEditForm(props, () => null, {
    validateFields: findVariableProblems,
  });

  return (
    <DialogForm {...dialogForm}>
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
