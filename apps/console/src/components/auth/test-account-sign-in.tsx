import { ChevronDown, FlaskConical } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { InputField } from '@/components/ui/form-field.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import {
  findTestAccountProblems,
  testAccountLimits,
  type TestAccount,
  type TestAccountProblems,
} from '@/lib/test-account.ts';
import { cn } from '@/lib/utils.ts';

/**
 * "Sign in with a test account": a disclosure below the Google button, shown only while the
 * server runs with the Firebase Auth emulator. Unlike the Google popup (which loads a script
 * from apis.google.com) it needs no internet, so a fresh local install can always sign in.
 */
export function TestAccountSignIn({
  isDisabled,
  isSigningIn,
  onSignIn,
}: {
  /** Some sign-in is under way: the form waits for it. */
  isDisabled: boolean;
  /** This form's own sign-in is under way. */
  isSigningIn: boolean;
  onSignIn: (account: TestAccount) => void;
}) {
  const id = useId();
  const [isOpen, setIsOpen] = useState(false);
  const [fields, setFields] = useState<TestAccount>({ name: '', email: '' });
  const [problems, setProblems] = useState<TestAccountProblems>({});
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);

  const setField = (name: keyof TestAccount, value: string) => {
    setFields((current) => ({ ...current, [name]: value }));
    // The message goes once the field is being fixed; the next attempt checks it again.
    setProblems((current) => ({ ...current, [name]: undefined }));
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isDisabled) return;
    const found = findTestAccountProblems(fields);
    setProblems(found);
    if (found.name) nameRef.current?.focus();
    else if (found.email) emailRef.current?.focus();
    else onSignIn(fields);
  };

  const describedBy = (field: keyof TestAccount) =>
    problems[field] ? `${id}-${field}-problem` : undefined;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3 text-xs text-muted-foreground">
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
        or
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
      </div>
      <Button
        id={`${id}-toggle`}
        variant="ghost"
        className="w-full"
        aria-expanded={isOpen}
        aria-controls={`${id}-form`}
        onClick={() => setIsOpen((current) => !current)}
      >
        <FlaskConical aria-hidden="true" />
        Sign in with a test account
        <ChevronDown
          aria-hidden="true"
          className={cn(
            'transition-transform motion-reduce:transition-none',
            isOpen && 'rotate-180',
          )}
        />
      </Button>
      <form
        id={`${id}-form`}
        hidden={!isOpen}
        aria-labelledby={`${id}-toggle`}
        aria-describedby={`${id}-hint`}
        noValidate
        onSubmit={handleSubmit}
        className="grid gap-4 rounded-lg border border-dashed border-border bg-muted/30 p-4"
      >
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          Works offline, and only on a local install running the test sign-in service (the Firebase
          Auth emulator). The same e-mail signs in to the same account every time.
        </p>
        <div className="grid gap-2">
          <InputField
            ref={nameRef}
            id={`${id}-name`}
            label="Name"
            isRequired
            autoComplete="name"
            maxLength={testAccountLimits.name}
            value={fields.name}
            onValueChange={(value) => setField('name', value)}
            aria-invalid={problems.name ? true : undefined}
            aria-describedby={describedBy('name')}
          />
          <FieldProblem id={`${id}-name-problem`} message={problems.name} />
        </div>
        <div className="grid gap-2">
          <InputField
            ref={emailRef}
            id={`${id}-email`}
            label="E-mail"
            type="email"
            isRequired
            autoComplete="email"
            spellCheck={false}
            maxLength={testAccountLimits.email}
            value={fields.email}
            onValueChange={(value) => setField('email', value)}
            aria-invalid={problems.email ? true : undefined}
            aria-describedby={describedBy('email')}
          />
          <FieldProblem id={`${id}-email-problem`} message={problems.email} />
        </div>
        <Button type="submit" className="w-full" disabled={isDisabled} aria-busy={isSigningIn}>
          {isSigningIn && <Spinner />}
          {isSigningIn ? 'Authenticating...' : 'Continue with test account'}
        </Button>
      </form>
    </div>
  );
}

/** A field's validation message, read with the field (its aria-describedby) when it gets focus. */
function FieldProblem({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-xs font-medium text-destructive">
      {message}
    </p>
  );
}
