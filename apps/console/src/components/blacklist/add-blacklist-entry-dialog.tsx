import {
  blacklistLimits,
  blacklistTypeLabels,
  blacklistTypes,
  type BlacklistType,
} from '@latchkey/contracts';
import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog.tsx';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer.tsx';
import { FormError, FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectSeparator,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useApplications } from '@/hooks/use-applications.ts';
import { useCreateBlacklistEntry } from '@/hooks/use-blacklist.ts';
import {
  EMPTY_BLACKLIST_ENTRY_FIELDS,
  GLOBAL_SCOPE_LABEL,
  GLOBAL_SCOPE_VALUE,
  toCreateBlacklistEntryRequest,
  validateBlacklistEntry,
  type BlacklistEntryFields,
} from './blacklist-display.ts';

const VALUE_PLACEHOLDERS: Record<BlacklistType, string> = {
  ip: '203.0.113.7',
  username: 'username',
  email: 'user@example.com',
  hwid: 'Hardware ID',
};

const VALUE_HINTS: Record<BlacklistType, string | undefined> = {
  ip: 'One IPv4 or IPv6 address.',
  username: 'Matched regardless of upper or lower case.',
  email: 'Matched regardless of upper or lower case.',
  hwid: undefined,
};

/** Spec doc 2 §2: the 'Add Blacklist Entry' dialog. */
export function AddBlacklistEntryDialog({ trigger }: { trigger?: ReactNode }) {
  const [isOpen, setIsOpen] = useState(false);

  return (
    <Dialog open={isOpen} onOpenChange={setIsOpen}>
      <DialogTrigger asChild>
        {trigger ?? (
          <Button>
            <Plus aria-hidden="true" />
            Add Blacklist Entry
          </Button>
        )}
      </DialogTrigger>
      <DialogContent>
        {/* Radix unmounts the content once closed, so each opening starts an empty form. */}
        <AddBlacklistEntryForm onDone={() => setIsOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function AddBlacklistEntryForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const [fields, setFields] = useState<BlacklistEntryFields>(EMPTY_BLACKLIST_ENTRY_FIELDS);
  const [validationError, setValidationError] = useState<string | null>(null);
  const createEntry = useCreateBlacklistEntry();
  const { data: applications, isPending: isLoadingApplications } = useApplications();

  const setField = <K extends keyof BlacklistEntryFields>(
    field: K,
    value: BlacklistEntryFields[K],
  ) => setFields((current) => ({ ...current, [field]: value }));

  const valueHint = fields.type ? VALUE_HINTS[fields.type] : undefined;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = validateBlacklistEntry(fields);
    setValidationError(problem);
    if (problem) return;
    createEntry.mutate(toCreateBlacklistEntryRequest(fields), { onSuccess: onDone });
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Add Blacklist Entry</DialogTitle>
        <DialogDescription>
          Blocked values are refused at registration and login, for every application or just one.
        </DialogDescription>
      </DialogHeader>
      <FormError>{validationError}</FormError>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField htmlFor={`${id}-type`} label="Type" isRequired>
          <Select
            value={fields.type}
            onValueChange={(value) => setField('type', value as BlacklistType)}
          >
            <SelectTrigger id={`${id}-type`} aria-required="true" autoFocus>
              <SelectValue placeholder="Select a type" />
            </SelectTrigger>
            <SelectContent>
              {blacklistTypes.map((type) => (
                <SelectItem key={type} value={type}>
                  {blacklistTypeLabels[type]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </FormField>
        <FormField htmlFor={`${id}-application`} label="Application">
          <Select value={fields.scope} onValueChange={(value) => setField('scope', value)}>
            <SelectTrigger id={`${id}-application`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={GLOBAL_SCOPE_VALUE}>{GLOBAL_SCOPE_LABEL}</SelectItem>
              {(applications?.length ?? 0) > 0 && <SelectSeparator />}
              {applications?.map((application) => (
                <SelectItem key={application.id} value={String(application.id)}>
                  {application.name}
                </SelectItem>
              ))}
              {isLoadingApplications && (
                <SelectItem value="loading" disabled>
                  Loading applications...
                </SelectItem>
              )}
            </SelectContent>
          </Select>
        </FormField>
      </div>
      <FormField htmlFor={`${id}-value`} label="Value" isRequired hint={valueHint}>
        <Input
          id={`${id}-value`}
          value={fields.value}
          onChange={(event) => setField('value', event.target.value)}
          placeholder={fields.type ? VALUE_PLACEHOLDERS[fields.type] : 'Value to block'}
          maxLength={blacklistLimits.value}
          autoComplete="off"
          spellCheck={false}
          aria-required="true"
          aria-describedby={valueHint ? `${id}-value-hint` : undefined}
        />
      </FormField>
      <FormField htmlFor={`${id}-reason`} label="Reason (optional)">
        <Textarea
          id={`${id}-reason`}
          value={fields.reason}
          onChange={(event) => setField('reason', event.target.value)}
          placeholder="Why is this blocked?"
          maxLength={blacklistLimits.reason}
          rows={3}
        />
      </FormField>
      <DialogFormFooter
        submitLabel="Add Entry"
        isSubmitting={createEntry.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
