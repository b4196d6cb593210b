import {
  VARIABLE_NAME_INVALID,
  VARIABLE_NAME_PATTERN,
  variableLimits,
  type UserVariable,
} from '@latchkey/contracts';
import { Lock, Pencil, Plus, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmSubject, ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { FormError, InputField, TextareaField } from '@/components/ui/form-field.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import {
  VARIABLES_FETCH_ERROR,
  useDeleteUserVariable,
  useSetUserVariable,
  useUserVariables,
} from '@/hooks/use-variables.ts';
import {
  formatValueSize,
  previewValue,
  validateUserVariable,
} from '@/components/variables/variable-display.ts';
import { onEnter, UserDialogSection, type UserSectionProps } from './user-dialog-section.tsx';

interface UserVariableFields {
  name: string;
  value: string;
  readOnly: boolean;
}

const EMPTY_FIELDS: UserVariableFields = { name: '', value: '', readOnly: false };

const nameProblem = (name: string) =>
  VARIABLE_NAME_PATTERN.test(name) ? null : VARIABLE_NAME_INVALID;

/**
 * An end user's own variables, in the Edit User dialog: each with its value and whether the
 * program may change it; add one, edit one (its value and read-only), delete one after a
 * confirmation. Each change is saved at once.
 */
export function UserVariablesSection({ applicationId, userId, username }: UserSectionProps) {
  const id = useId();
  const variablesQuery = useUserVariables(applicationId, userId);
  const save = useSetUserVariable(applicationId, userId);
  const remove = useDeleteUserVariable(applicationId, userId);
  const removing = useDialogTarget<UserVariable>();
  // The name being edited, or null while the form adds a new one.
  const [editingName, setEditingName] = useState<string | null>(null);
  const [fields, setFields] = useState(EMPTY_FIELDS);
  const [problem, setProblem] = useState<string | null>(null);
  // What the form holds now, for a save that settles after the owner typed on.
  const currentFields = useRef(fields);
  currentFields.current = fields;

  const variables = variablesQuery.data ?? [];
  const isFull = variables.length >= variableLimits.userVariablesPerUser;
  const isFormShown = editingName !== null || !isFull;

  const reset = () => {
    setEditingName(null);
    setFields(EMPTY_FIELDS);
    setProblem(null);
  };

  const startEditing = (variable: UserVariable) => {
    setEditingName(variable.name);
    setFields({ name: variable.name, value: variable.value, readOnly: variable.readOnly });
    setProblem(null);
  };

  const submit = () => {
    if (save.isPending) return;
    const found = validateUserVariable(fields, nameProblem);
    setProblem(found);
    if (found) return;
    const submitted = fields;
    save.mutate(
      { name: fields.name.trim(), variable: { value: fields.value, readOnly: fields.readOnly } },
      {
        // The save settles only once every owner list is re-read (a live event can restart
        // that), and the toast and the new row come first: an owner may already be typing the
        // next variable, which must not be wiped.
        onSuccess: () => {
          if (currentFields.current === submitted) reset();
        },
      },
    );
  };

  return (
    <>
      <UserDialogSection
        title="Variables"
        description={
          <>
            {username}&apos;s own values, which your program reads with POST /api/v1/user-var (and
            changes, unless read-only).
          </>
        }
        query={variablesQuery}
        loadingLabel="Loading variables"
        fetchErrorMessage={VARIABLES_FETCH_ERROR}
      >
        {() => (
          <>
            {variables.length === 0 ? (
              <p className="text-sm text-muted-foreground">No variables yet.</p>
            ) : (
              <ul aria-label={`Variables of ${username}`} className="grid gap-2">
                {variables.map((variable) => (
                  <li
                    key={variable.name}
                    data-testid={`user-variable-${variable.name}`}
                    className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border p-3"
                  >
                    <div className="grid min-w-0 flex-1 gap-0.5">
                      <div className="flex min-w-0 flex-wrap items-center gap-2">
                        <span className="truncate font-mono text-sm font-medium">
                          {variable.name}
                        </span>
                        {variable.readOnly && (
                          <Badge variant="muted">
                            <Lock aria-hidden="true" />
                            Read-only
                          </Badge>
                        )}
                      </div>
                      <span className="truncate font-mono text-xs text-muted-foreground">
                        {variable.value === '' ? 'Empty' : previewValue(variable.value)}
                      </span>
                    </div>
                    <div className="flex items-center gap-1">
                      <IconButton
                        label={`Edit variable ${variable.name}`}
                        onClick={() => startEditing(variable)}
                      >
                        <Pencil aria-hidden="true" />
                      </IconButton>
                      <IconButton
                        label={`Delete variable ${variable.name}`}
                        isDestructive
                        onClick={() => removing.open(variable)}
                      >
                        <Trash2 aria-hidden="true" />
                      </IconButton>
                    </div>
                  </li>
                ))}
              </ul>
            )}
            {isFull && editingName === null && (
              <p className="text-xs text-muted-foreground">
                {username} holds the most variables allowed ({variableLimits.userVariablesPerUser}):
                delete one to add another.
              </p>
            )}
            {isFormShown && (
              <div
                role="group"
                aria-label={
                  editingName === null ? 'Add a variable' : `Edit variable ${editingName}`
                }
                className="grid gap-3 rounded-md bg-muted/40 p-3"
              >
                <InputField
                  id={`${id}-name`}
                  label={editingName === null ? 'New variable name' : 'Name'}
                  value={fields.name}
                  onValueChange={(name) => setFields((current) => ({ ...current, name }))}
                  onKeyDown={onEnter(submit)}
                  // The name is the variable: editing one changes its value, not what it is called.
                  readOnly={editingName !== null}
                  placeholder="theme"
                  maxLength={variableLimits.name}
                  autoComplete="off"
                  spellCheck={false}
                  className="font-mono"
                />
                <TextareaField
                  id={`${id}-value`}
                  label="Value"
                  hint={formatValueSize(fields.value, variableLimits.userValueBytes)}
                  value={fields.value}
                  onValueChange={(value) => setFields((current) => ({ ...current, value }))}
                  spellCheck={false}
                  rows={3}
                  className="max-h-48 font-mono"
                />
                <Label htmlFor={`${id}-read-only`} className="w-fit cursor-pointer">
                  <Switch
                    id={`${id}-read-only`}
                    checked={fields.readOnly}
                    onCheckedChange={(readOnly) =>
                      setFields((current) => ({ ...current, readOnly }))
                    }
                  />
                  Read-only (the program cannot change it)
                </Label>
                {problem && <FormError>{problem}</FormError>}
                <div className="flex flex-wrap justify-end gap-2">
                  {editingName !== null && (
                    <Button variant="outline" size="sm" onClick={reset}>
                      Cancel
                    </Button>
                  )}
                  <Button size="sm" variant="outline" disabled={save.isPending} onClick={submit}>
                    {save.isPending ? <Spinner /> : <Plus aria-hidden="true" />}
                    {editingName === null ? 'Add Variable' : 'Save Variable'}
                  </Button>
                </div>
              </div>
            )}
          </>
        )}
      </UserDialogSection>

      <ConfirmTargetDialog
        dialog={removing}
        title="Delete variable?"
        description={(variable) => (
          <>
            <ConfirmSubject isCode>{variable.name}</ConfirmSubject> will be deleted from {username}
            &apos;s variables.
          </>
        )}
        confirmLabel="Delete Variable"
        onConfirm={(variable) => {
          remove.mutate(variable.name);
          if (editingName === variable.name) reset();
        }}
      />
    </>
  );
}
