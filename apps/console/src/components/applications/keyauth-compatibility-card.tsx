import {
  KEYAUTH_NAME_TAKEN,
  KEYAUTH_NEEDS_IDENTITY,
  keyauthLimits,
  updateApplicationRequestSchema,
  type Application,
  type UpdateApplicationRequest,
} from '@latchkey/contracts';
import { ArrowLeftRight } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { CopyableSnippet } from '@/components/ui/folded-help-card.tsx';
import { InputField, SwitchField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { CardFormFooter } from '@/components/ui/card-form-footer.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useUpdateApplication } from '@/hooks/use-applications.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { KEYAUTH_MIGRATION_SECTION, docsSectionHref } from '@/lib/docs-links.ts';
import { parseTypedNumber } from '@/lib/typed-number.ts';
import { ApiError } from '@/lib/api.ts';
import { ApiKeyField } from './api-key-field.tsx';

export const KEYAUTH_TURN_OFF_WARNING =
  "Programs built on KeyAuth's client libraries will be refused until you turn this back on.";

export const KEYAUTH_OWNER_ID_HINT = `${keyauthLimits.ownerIdLength} letters or digits. Keep KeyAuth's to change less in your program; left empty, one is generated when compatibility is turned on.`;

export const KEYAUTH_NAME_HINT =
  "The name your program sends with the owner ID; left empty, it becomes this application's name when compatibility is turned on.";

export const KEYAUTH_SESSION_HOURS_HINT = `How long a session opened by KeyAuth's init lasts: ${keyauthLimits.minSessionHours} to ${keyauthLimits.maxSessionHours} hours.`;

export const KEYAUTH_IMPORTED_SECRET_HINT =
  "64 hex characters, from your application in KeyAuth's dashboard, so programs that have it need no new one. Once saved, programs holding the current secret stop working.";

export const KEYAUTH_PUBLIC_KEY_HINT =
  "Replaces KeyAuth's public key constant in your program: answers from here are signed with this application's own key.";

/** What stands for the secret in the snippet until the owner shows it. */
const MASKED_SECRET = '•'.repeat(16);

/** The fields the card edits, by their name in the request (which the server's refusals use). */
const keyauthFields = [
  'keyauthOwnerId',
  'keyauthName',
  'keyauthSessionHours',
  'keyauthSecret',
] as const;
type KeyauthField = (typeof keyauthFields)[number];
type FieldProblems = Partial<Record<KeyauthField, string>>;

export interface KeyauthDraft {
  isOn: boolean;
  ownerId: string;
  name: string;
  sessionHours: string;
  /** A secret pasted from KeyAuth; null while the owner keeps the current one. */
  importedSecret: string | null;
}

function savedDraftOf(application: Application): KeyauthDraft {
  return {
    isOn: application.keyauthCompatibility,
    ownerId: application.keyauthOwnerId ?? '',
    name: application.keyauthName ?? '',
    sessionHours: String(application.keyauthSessionHours),
    importedSecret: null,
  };
}

function toChanges(draft: KeyauthDraft): UpdateApplicationRequest {
  const importedSecret = draft.importedSecret?.trim() ?? '';
  return {
    keyauthCompatibility: draft.isOn,
    keyauthOwnerId: draft.ownerId,
    keyauthName: draft.name,
    keyauthSessionHours: parseTypedNumber(draft.sessionHours),
    ...(importedSecret === '' ? {} : { keyauthSecret: importedSecret }),
  };
}

/** Blank identity fields, which the server refuses while compatibility stays on. */
function blankIdentityProblems(draft: KeyauthDraft): FieldProblems {
  const problems: FieldProblems = {};
  if (draft.ownerId.trim() === '') problems.keyauthOwnerId = KEYAUTH_NEEDS_IDENTITY;
  if (draft.name.trim() === '') problems.keyauthName = KEYAUTH_NEEDS_IDENTITY;
  return problems;
}

/**
 * What is wrong with the draft, field by field, in the words of the contract the server checks.
 * Blank identity fields are only wrong while compatibility was on and stays on: turning it on
 * fills them in.
 */
export function findKeyauthProblems(draft: KeyauthDraft, isSavedOn: boolean): FieldProblems {
  const result = updateApplicationRequestSchema.safeParse(toChanges(draft));
  const problems: FieldProblems = isSavedOn && draft.isOn ? blankIdentityProblems(draft) : {};
  for (const issue of result.error?.issues ?? []) {
    const field = keyauthFields.find((candidate) => candidate === issue.path[0]);
    if (field) problems[field] ??= issue.message;
  }
  return problems;
}

/**
 * The server's refusal, placed at the fields it names (a 400 lists them), and the owner id and
 * name being taken at the owner id; anything else is the card's problem.
 */
export function placeKeyauthRefusal(
  error: unknown,
  draft: KeyauthDraft,
): { fields: FieldProblems; card: string | null } {
  const placed: FieldProblems = {};
  for (const problem of error instanceof ApiError ? error.fieldProblems : []) {
    const field = keyauthFields.find((candidate) => candidate === problem.field);
    if (field) placed[field] ??= problem.message;
  }
  if (Object.keys(placed).length > 0) return { fields: placed, card: null };
  const message = getErrorToastMessage(error, 'Failed to update application');
  if (message === KEYAUTH_NAME_TAKEN) return { fields: { keyauthOwnerId: message }, card: null };
  if (message === KEYAUTH_NEEDS_IDENTITY) {
    const blank = blankIdentityProblems(draft);
    const fields = Object.keys(blank).length > 0 ? blank : { keyauthOwnerId: message };
    return { fields, card: null };
  }
  return { fields: {}, card: message };
}

function quoted(value: string): string {
  return JSON.stringify(value);
}

/** The lines of a program that change, as `key = "value"`, aligned. */
function programSettings(settings: [key: string, value: string][]): string {
  const width = Math.max(...settings.map(([key]) => key.length));
  return settings.map(([key, value]) => `${key.padEnd(width)} = ${quoted(value)}`).join('\n');
}

/**
 * The API Configuration tab's KeyAuth card: whether the KeyAuth-compatible client API answers
 * for this application, the owner id and name KeyAuth's libraries find it by, its session
 * lifetime and API 1.2's secret (shown like the API key, or replaced by one pasted from
 * KeyAuth), and what changes in a program built on those libraries. Saved together; turning
 * it off is confirmed first, as every such program is refused at once.
 */
export function KeyauthCompatibilityCard({
  application,
  className,
}: {
  application: Application;
  className?: string;
}) {
  const id = useId();
  const update = useUpdateApplication();
  const [draft, setDraft] = useState(() => savedDraftOf(application));
  const [problems, setProblems] = useState<FieldProblems>({});
  const [cardProblem, setCardProblem] = useState<string | null>(null);
  const [isSecretVisible, setIsSecretVisible] = useState(false);
  const [isConfirmOpen, setIsConfirmOpen] = useState(false);
  const inputs = useRef<Partial<Record<KeyauthField, HTMLInputElement | null>>>({});
  const importButton = useRef<HTMLButtonElement>(null);
  const origin = window.location.origin;
  const fieldId = (field: KeyauthField) => `${id}-${field}`;

  const focusFirstProblem = (found: FieldProblems) => {
    const first = keyauthFields.find((field) => found[field] !== undefined);
    if (first) inputs.current[first]?.focus();
  };
  const change = (changes: Partial<KeyauthDraft>, field?: KeyauthField) => {
    setDraft((current) => ({ ...current, ...changes }));
    if (field) {
      setProblems((current) => {
        const others = { ...current };
        delete others[field];
        return others;
      });
    }
    setCardProblem(null);
  };
  const bindField = (field: KeyauthField, draftKey: 'ownerId' | 'name' | 'sessionHours') => ({
    id: fieldId(field),
    ref: (input: HTMLInputElement | null) => {
      inputs.current[field] = input;
    },
    value: draft[draftKey],
    onValueChange: (value: string) => change({ [draftKey]: value }, field),
    problem: problems[field],
  });

  const save = () =>
    update.mutate(
      { applicationId: application.id, changes: toChanges(draft) },
      {
        onSuccess: (saved) => {
          setDraft(savedDraftOf(saved));
          setProblems({});
        },
        onError: (error) => {
          const refusal = placeKeyauthRefusal(error, draft);
          setProblems(refusal.fields);
          setCardProblem(refusal.card);
          focusFirstProblem(refusal.fields);
        },
      },
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = findKeyauthProblems(draft, application.keyauthCompatibility);
    setProblems(found);
    setCardProblem(null);
    if (Object.keys(found).length > 0) {
      focusFirstProblem(found);
    } else if (application.keyauthCompatibility && !draft.isOn) {
      setIsConfirmOpen(true);
    } else {
      save();
    }
  };

  const savedSecret = application.keyauthSecret;
  // An owner id and name can be saved while off, before any secret: shown once all three are.
  const hasProgramSettings =
    application.keyauthOwnerId !== null && application.keyauthName !== null && savedSecret !== null;
  const identity: [string, string][] = [
    ['name', application.keyauthName ?? ''],
    ['ownerid', application.keyauthOwnerId ?? ''],
  ];
  const api12 = (secret: string) =>
    programSettings([...identity, ['secret', secret], ['url', `${origin}/api/1.2/`]]);

  return (
    <SectionCard
      className={className}
      title="KeyAuth Compatibility"
      description="Programs built on KeyAuth's client libraries can use this application, with a few values changed."
      icon={ArrowLeftRight}
    >
      <form className="flex flex-col gap-5" onSubmit={submit} noValidate>
        <SwitchField
          id={`${id}-enabled`}
          label="Answer KeyAuth's client libraries"
          hint={
            <>
              Programs built on KeyAuth&apos;s C#, C++ or Python library reach this application at{' '}
              <code className="font-mono text-xs wrap-anywhere">{origin}/api/1.2/</code> or{' '}
              <code className="font-mono text-xs">/api/1.3/</code> once their URL is changed; see{' '}
              <Link
                href={docsSectionHref(KEYAUTH_MIGRATION_SECTION.id)}
                className="rounded-sm font-medium text-primary underline underline-offset-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
              >
                {KEYAUTH_MIGRATION_SECTION.title}
              </Link>{' '}
              in the documentation.
            </>
          }
          checked={draft.isOn}
          onCheckedChange={(isOn) => change({ isOn })}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField
            {...bindField('keyauthOwnerId', 'ownerId')}
            label="Owner ID"
            hint={KEYAUTH_OWNER_ID_HINT}
            placeholder="Generated"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
          />
          <InputField
            {...bindField('keyauthName', 'name')}
            label="Application name (KeyAuth)"
            hint={KEYAUTH_NAME_HINT}
            placeholder={application.name}
            autoComplete="off"
          />
        </div>
        <InputField
          {...bindField('keyauthSessionHours', 'sessionHours')}
          label="Session lifetime (hours)"
          hint={KEYAUTH_SESSION_HOURS_HINT}
          // Text, not a number input: a browser empties a number input holding "6h", where
          // the owner should read what is wrong with it.
          inputMode="numeric"
          autoComplete="off"
          className="w-40"
        />
        <div className="grid gap-2">
          <Label htmlFor={`${id}-secret`}>Secret (API 1.2)</Label>
          {savedSecret === null ? (
            <p className="text-sm text-muted-foreground">
              None yet: one is generated when compatibility is turned on, unless you use
              KeyAuth&apos;s.
            </p>
          ) : (
            <ApiKeyField
              id={`${id}-secret`}
              secret={savedSecret}
              secretName="KeyAuth secret"
              isVisible={isSecretVisible}
              onVisibleChange={setIsSecretVisible}
            />
          )}
          <p className="text-xs text-muted-foreground">
            API 1.2 answers are signed with it, and your program checks them; API 1.3 needs none.
          </p>
          {draft.importedSecret === null ? (
            <Button
              ref={importButton}
              type="button"
              variant="outline"
              size="sm"
              className="w-fit"
              onClick={() => {
                // The field replaces the button: drawn at once, so focus can move into it.
                flushSync(() => change({ importedSecret: '' }));
                inputs.current.keyauthSecret?.focus();
              }}
            >
              Use KeyAuth&apos;s Secret
            </Button>
          ) : (
            <div className="grid gap-2 rounded-lg border border-border p-3">
              <InputField
                id={fieldId('keyauthSecret')}
                ref={(input) => {
                  inputs.current.keyauthSecret = input;
                }}
                label="Secret from KeyAuth"
                hint={KEYAUTH_IMPORTED_SECRET_HINT}
                value={draft.importedSecret}
                onValueChange={(value) => change({ importedSecret: value }, 'keyauthSecret')}
                problem={problems.keyauthSecret}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
              />
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="w-fit"
                onClick={() => {
                  flushSync(() => change({ importedSecret: null }, 'keyauthSecret'));
                  importButton.current?.focus();
                }}
              >
                Keep the Current Secret
              </Button>
            </div>
          )}
        </div>
        <CardFormFooter
          problem={cardProblem}
          mutation={update}
          submitLabel="Save KeyAuth Settings"
        />
      </form>

      <section
        aria-labelledby={`${id}-program-heading`}
        className="mt-6 grid gap-3 border-t border-border pt-6"
      >
        <div className="grid gap-1">
          <h3 id={`${id}-program-heading`} className="text-sm font-semibold">
            What changes in your program
          </h3>
          <p className="text-sm text-muted-foreground">
            Each library spells these its own way; keep the version and everything else as it is.
          </p>
        </div>
        {hasProgramSettings && savedSecret !== null ? (
          <div className="grid gap-4 lg:grid-cols-2">
            <div className="grid content-start gap-2">
              <p className="text-sm font-medium">API 1.2</p>
              <CopyableSnippet
                code={api12(isSecretVisible ? savedSecret : MASKED_SECRET)}
                copyValue={api12(savedSecret)}
                copyLabel="Copy the API 1.2 settings"
                className="whitespace-pre-wrap wrap-anywhere"
              />
            </div>
            <div className="grid content-start gap-2">
              <p className="text-sm font-medium">API 1.3</p>
              <CopyableSnippet
                code={programSettings([...identity, ['url', `${origin}/api/1.3/`]])}
                copyLabel="Copy the API 1.3 settings"
                className="whitespace-pre-wrap wrap-anywhere"
              />
              <p id={`${id}-public-key-label`} className="text-sm font-medium">
                Public key (API 1.3)
              </p>
              <div className="flex items-start gap-1">
                <code
                  data-testid="keyauth-public-key"
                  aria-labelledby={`${id}-public-key-label`}
                  aria-describedby={`${id}-public-key-hint`}
                  className="min-w-0 flex-1 rounded-md border border-input bg-muted/40 px-3 py-2 font-mono text-xs break-all"
                >
                  {application.signingPublicKey}
                </code>
                <CopyButton
                  value={application.signingPublicKey}
                  label="Copy the API 1.3 public key"
                />
              </div>
              <p id={`${id}-public-key-hint`} className="text-xs text-muted-foreground">
                {KEYAUTH_PUBLIC_KEY_HINT}
              </p>
            </div>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">
            Turn compatibility on and save: what is missing (an owner ID, a secret) is generated,
            and the values to put in your program appear here.
          </p>
        )}
      </section>

      <ConfirmDialog
        open={isConfirmOpen}
        onOpenChange={setIsConfirmOpen}
        title="Turn off KeyAuth compatibility?"
        description={KEYAUTH_TURN_OFF_WARNING}
        confirmLabel="Turn Off"
        onConfirm={save}
      />
    </SectionCard>
  );
}
