import {
  apiTokenLimits,
  apiTokenScopeDescriptions,
  apiTokenScopes,
  type CreatedApiToken,
} from '@latchkey/contracts';
import { useId } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Checkbox } from '@/components/ui/checkbox.tsx';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog.tsx';
import { ChoiceBox, FieldProblem, InputField, TextareaField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { useCreateApiToken } from '@/hooks/use-api-tokens.ts';
import { useApplications } from '@/hooks/use-applications.ts';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useFormFields } from '@/hooks/use-form-fields.ts';
import { cn } from '@/lib/utils.ts';
import {
  apiTokenFieldOf,
  apiTokenScopeGroups,
  EMPTY_API_TOKEN_FIELDS,
  findApiTokenProblems,
  toCreateApiTokenRequest,
  toDateInputValue,
  toggleScope,
  type ApiTokenFields,
} from './api-token-display.ts';

export const CREATE_TOKEN_LABEL = 'Create Token';

/**
 * The Create Token dialog, opened by the page's buttons. The new token (with its text) goes to
 * `onCreated`, which shows it once; this dialog closes as that one opens.
 */
export function CreateApiTokenDialog({
  onCreated,
  ...openState
}: DialogOpenState & {
  onCreated: (created: CreatedApiToken) => void;
}) {
  const createToken = useCreateApiToken();

  return (
    <FormDialog className="sm:max-w-2xl" {...openState}>
      {(close) => (
        <CreateApiTokenForm
          isSubmitting={createToken.isPending}
          onCancel={close}
          onSubmit={(fields, onRefused) =>
            createToken.mutate(toCreateApiTokenRequest(fields), {
              onError: onRefused,
              onSuccess: (created) => {
                close();
                onCreated(created);
                // The answer holds the token's text: the dialog that shows it keeps it, the
                // mutation does not (with gcTime 0 the cache drops it at once).
                createToken.reset();
              },
            })
          }
        />
      )}
    </FormDialog>
  );
}

function CreateApiTokenForm({
  isSubmitting,
  onSubmit,
  onCancel,
}: {
  isSubmitting: boolean;
  /** Sends valid fields; `onRefused` is given the error when the server refuses them. */
  onSubmit: (fields: ApiTokenFields, onRefused: (error: unknown) => void) => void;
  onCancel: () => void;
}) {
  const id = useId();
  // Every problem at its field, all at once; the first marked field is scrolled to and
  // focused, which matters in a form taller than a phone whose button is at the bottom.
  const {
    fields,
    setField,
    bindText,
    problems,
    clearProblems,
    validationError,
    submit,
    refuse,
    formRef,
  } = useFormFields({
    initialFields: EMPTY_API_TOKEN_FIELDS,
    validateFields: (candidate) => findApiTokenProblems(candidate),
    fieldOfPath: apiTokenFieldOf,
    onValidSubmit: (valid) => onSubmit(valid, refuse),
  });
  const allScopesChosen = fields.scopes.length === apiTokenScopes.length;
  const scopesProblem = problems.scopes;
  const scopesProblemId = `${id}-scopes-problem`;

  return (
    <DialogForm
      title="Create API Token"
      description="A token lets a script, a shop or a bot call the management API as you, within the scopes and applications you choose here."
      submitLabel={CREATE_TOKEN_LABEL}
      validationError={validationError}
      isSubmitting={isSubmitting}
      onSubmit={submit}
      onCancel={onCancel}
      formRef={formRef}
      className="gap-5"
    >
      <InputField
        id={`${id}-name`}
        label="Name"
        isRequired
        hint="Say what uses it, so you know which one to revoke: a shop, a CI job, a bot."
        {...bindText('name')}
        placeholder="e.g. Shopify order sync"
        maxLength={apiTokenLimits.name}
        autoComplete="off"
        autoFocus
      />

      <div
        role="group"
        aria-labelledby={`${id}-scopes`}
        aria-describedby={scopesProblem ? scopesProblemId : undefined}
        className="grid gap-3"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span id={`${id}-scopes`} className="text-sm font-medium">
            Scopes
            <span aria-hidden="true" className="ml-1 text-destructive">
              *
            </span>
          </span>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setField('scopes', allScopesChosen ? [] : [...apiTokenScopes])}
          >
            {allScopesChosen ? 'Clear all' : 'Select all'}
          </Button>
        </div>
        <p className="text-xs text-muted-foreground">
          Choose only what the script needs. A call also needs your own permission for the same act,
          checked again on every call.
        </p>
        <ChoiceBox problem={scopesProblem} problemId={scopesProblemId} className="gap-4">
          {apiTokenScopeGroups.map((group) => (
            <div
              key={group.resource}
              role="group"
              aria-labelledby={`${id}-group-${group.resource}`}
              className="grid content-start gap-2"
            >
              <span
                id={`${id}-group-${group.resource}`}
                className="text-xs font-medium tracking-wide text-muted-foreground uppercase"
              >
                {group.label}
              </span>
              {group.scopes.map((scope) => {
                const checkboxId = `${id}-scope-${scope}`;
                return (
                  <div key={scope} className="flex items-start gap-2">
                    <Checkbox
                      id={checkboxId}
                      className="mt-0.5"
                      checked={fields.scopes.includes(scope)}
                      // Each box is what the problem asks to change: the first one is focused.
                      aria-invalid={scopesProblem ? true : undefined}
                      aria-describedby={joinIds(
                        `${checkboxId}-description`,
                        scopesProblem && scopesProblemId,
                      )}
                      onCheckedChange={(checked) =>
                        setField('scopes', toggleScope(fields.scopes, scope, checked === true))
                      }
                    />
                    <div className="grid gap-0.5">
                      <Label
                        htmlFor={checkboxId}
                        className="cursor-pointer font-mono text-[0.8125rem]"
                      >
                        {scope}
                      </Label>
                      <p id={`${checkboxId}-description`} className="text-xs text-muted-foreground">
                        {apiTokenScopeDescriptions[scope]}
                      </p>
                    </div>
                  </div>
                );
              })}
            </div>
          ))}
        </ChoiceBox>
      </div>

      <ApplicationRestriction
        id={`${id}-applications`}
        isRestricted={fields.isRestrictedToApplications}
        applicationIds={fields.applicationIds}
        problem={problems.applicationIds}
        onRestrictedChange={(isRestricted) => {
          setField('isRestrictedToApplications', isRestricted);
          // Without the restriction no application need be chosen.
          clearProblems(['applicationIds']);
        }}
        onApplicationIdsChange={(applicationIds) => setField('applicationIds', applicationIds)}
      />

      <InputField
        id={`${id}-expires`}
        label="Expires (optional)"
        hint="The token stops working when this day ends, in your time zone. Leave empty for never."
        type="date"
        {...bindText('expiresOn')}
        min={toDateInputValue(new Date())}
        className="w-48"
      />

      <TextareaField
        id={`${id}-allowed-ips`}
        label="Allowed IPs (optional)"
        hint="One IPv4 or IPv6 address or CIDR range a line (or separated by commas), e.g. 203.0.113.7 or 2001:db8::/48. Calls from anywhere else are refused. Leave empty to allow any address."
        {...bindText('allowedIps')}
        placeholder={'203.0.113.7\n198.51.100.0/24'}
        rows={3}
        autoComplete="off"
        spellCheck={false}
        className="font-mono text-[0.8125rem]"
      />
    </DialogForm>
  );
}

/**
 * "Restrict to applications": off reaches every application, present and future. A `problem`
 * (none chosen, or one the server refused) is shown below the list and marks its boxes, or the
 * restriction's own box while the list has none.
 */
function ApplicationRestriction({
  id,
  isRestricted,
  applicationIds,
  problem,
  onRestrictedChange,
  onApplicationIdsChange,
}: {
  id: string;
  isRestricted: boolean;
  applicationIds: readonly number[];
  problem: string | undefined;
  onRestrictedChange: (isRestricted: boolean) => void;
  onApplicationIdsChange: (applicationIds: number[]) => void;
}) {
  const applications = useApplications();
  const problemId = `${id}-problem`;
  const hasApplicationBoxes = applications.isSuccess && applications.data.length > 0;
  const isRestrictionMarked = problem !== undefined && !hasApplicationBoxes;

  return (
    <div className="grid gap-3">
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-restrict`} className="w-fit cursor-pointer">
          <Checkbox
            id={`${id}-restrict`}
            checked={isRestricted}
            aria-invalid={isRestrictionMarked || undefined}
            aria-describedby={joinIds(`${id}-restrict-hint`, isRestrictionMarked && problemId)}
            onCheckedChange={(checked) => onRestrictedChange(checked === true)}
          />
          Restrict to applications
        </Label>
        <p id={`${id}-restrict-hint`} className="text-xs text-muted-foreground">
          {isRestricted
            ? 'The token reaches only the applications ticked below.'
            : 'Off: the token reaches all your applications, including ones you create later.'}
        </p>
      </div>
      {isRestricted && (
        <div
          role="group"
          aria-label="Applications the token may reach"
          aria-describedby={problem ? problemId : undefined}
          className={cn(
            'grid max-h-56 gap-2 overflow-y-auto rounded-lg border border-border p-3 sm:grid-cols-2',
            problem && 'border-destructive',
          )}
        >
          {applications.isPending ? (
            <p className="text-sm text-muted-foreground">Loading applications…</p>
          ) : applications.isError ? (
            <p className="text-sm text-destructive">Your applications could not be loaded.</p>
          ) : applications.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              You have no applications yet. Leave the restriction off, or create one first.
            </p>
          ) : (
            applications.data.map((application) => {
              const checkboxId = `${id}-application-${application.id}`;
              return (
                <Label
                  key={application.id}
                  htmlFor={checkboxId}
                  className="min-w-0 cursor-pointer font-normal"
                >
                  <Checkbox
                    id={checkboxId}
                    checked={applicationIds.includes(application.id)}
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={problem ? problemId : undefined}
                    onCheckedChange={(checked) =>
                      onApplicationIdsChange(
                        checked === true
                          ? [...applicationIds, application.id]
                          : applicationIds.filter((candidate) => candidate !== application.id),
                      )
                    }
                  />
                  <span className="min-w-0 break-words">{application.name}</span>
                </Label>
              );
            })
          )}
        </div>
      )}
      {problem && <FieldProblem id={problemId}>{problem}</FieldProblem>}
    </div>
  );
}

/** An aria-describedby naming each of `ids` that is given. */
function joinIds(...ids: (string | false | undefined)[]): string {
  return ids.filter(Boolean).join(' ');
}
