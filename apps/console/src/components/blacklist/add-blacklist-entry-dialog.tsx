import {
  blacklistLimits,
  blacklistTypeLabels,
  blacklistTypes,
  type BlacklistType,
} from '@latchkey/contracts';
import { Plus } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { ApplicationScopeSelect } from '@/components/applications/application-scope-select.tsx';
import { DialogForm, FormDialog, useMutationForm } from '@/components/ui/form-dialog.tsx';
import { FieldProblem, FormField, InputField, TextareaField } from '@/components/ui/form-field.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import { useCreateBlacklistEntry } from '@/hooks/use-blacklist.ts';
import {
  blacklistEntryFieldOf,
  EMPTY_BLACKLIST_ENTRY_FIELDS,
  findBlacklistEntryProblems,
  GLOBAL_SCOPE_LABEL,
  GLOBAL_SCOPE_VALUE,
  toCreateBlacklistEntryRequest,
} from './blacklist-display.ts';

const VALUE_PLACEHOLDERS: Record<BlacklistType, string> = {
  ip: '203.0.113.7',
  username: 'username',
  email: 'user@example.com',
  hwid: 'Hardware ID',
};

const VALUE_HINTS: Record<BlacklistType, string | undefined> = {
  ip: 'One IPv4 or IPv6 address or CIDR range, e.g. 203.0.113.7 or 203.0.113.0/24.',
  username: 'Matched regardless of upper or lower case.',
  email: 'Matched regardless of upper or lower case.',
  hwid: undefined,
};

/** The 'Add Blacklist Entry' dialog. */
export function AddBlacklistEntryDialog({ trigger }: { trigger?: ReactNode }) {
  return (
    <FormDialog trigger={trigger} triggerIcon={Plus} triggerLabel="Add Blacklist Entry">
      {(close) => <AddBlacklistEntryForm onDone={close} />}
    </FormDialog>
  );
}

function AddBlacklistEntryForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const createEntry = useCreateBlacklistEntry();
  // Every problem at its field, all at once.
  const { fields, setField, bindText, problems, dialogForm } = useMutationForm({
    initialFields: EMPTY_BLACKLIST_ENTRY_FIELDS,
    validateFields: findBlacklistEntryProblems,
    fieldOfPath: blacklistEntryFieldOf,
    mutation: createEntry,
    toRequest: toCreateBlacklistEntryRequest,
    onDone,
  });

  const valueHint = fields.type ? VALUE_HINTS[fields.type] : undefined;
  const typeProblem = problems.type;

  return (
    <DialogForm
      title="Add Blacklist Entry"
      description="Blocked values are refused at registration and login, for every application or just one."
      submitLabel="Add Entry"
      {...dialogForm}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField htmlFor={`${id}-type`} label="Type" isRequired>
          <OptionSelect
            id={`${id}-type`}
            value={fields.type}
            onValueChange={(type) => setField('type', type)}
            options={labelledOptions(blacklistTypes, blacklistTypeLabels)}
            placeholder="Select a type"
            aria-required="true"
            aria-invalid={typeProblem ? true : undefined}
            aria-describedby={typeProblem ? `${id}-type-problem` : undefined}
            autoFocus
          />
          {typeProblem && <FieldProblem id={`${id}-type-problem`}>{typeProblem}</FieldProblem>}
        </FormField>
        <FormField htmlFor={`${id}-application`} label="Application">
          <ApplicationScopeSelect
            id={`${id}-application`}
            {...bindText('scope')}
            allValue={GLOBAL_SCOPE_VALUE}
            allLabel={GLOBAL_SCOPE_LABEL}
          />
        </FormField>
      </div>
      <InputField
        id={`${id}-value`}
        label="Value"
        isRequired
        hint={valueHint}
        {...bindText('value')}
        placeholder={fields.type ? VALUE_PLACEHOLDERS[fields.type] : 'Value to block'}
        maxLength={blacklistLimits.value}
        autoComplete="off"
        spellCheck={false}
      />
      <TextareaField
        id={`${id}-reason`}
        label="Reason (optional)"
        {...bindText('reason')}
        placeholder="Why is this blocked?"
        maxLength={blacklistLimits.reason}
        rows={3}
      />
    </DialogForm>
  );
}
