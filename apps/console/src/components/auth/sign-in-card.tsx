import { KeyRound, ShieldCheck } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import type { TestAccount } from '@/lib/test-account.ts';
import { GoogleIcon } from './google-icon.tsx';
import { TestAccountSignIn } from './test-account-sign-in.tsx';

export type SignInMethod = 'google' | 'test-account';

/**
 * What the card says: the sign-in page greets a new vendor, while a signed-out visit to a
 * console page (a deep link, sent here with its target) is someone signing in to go on.
 */
const SIGN_IN_TEXTS = {
  welcome: {
    heading: 'Create Your Account',
    description:
      'Sign in with Google to get started. Each Google account creates its own isolated environment with unique API keys and user management.',
  },
  continue: {
    heading: 'Sign In to Continue',
    description: 'That page needs you signed in. Sign in with Google and you go straight on to it.',
  },
} as const;

export function SignInCard({
  isSigningIn,
  purpose = 'welcome',
  signInMethod = 'google',
  onSignIn,
  onSignInWithTestAccount,
}: {
  isSigningIn: boolean;
  /** `continue` when the visit was on its way to a page of the console. */
  purpose?: keyof typeof SIGN_IN_TEXTS;
  /** Which button shows the busy state while `isSigningIn`: the one that was pressed. */
  signInMethod?: SignInMethod;
  onSignIn: () => void;
  /** Offered only while the server runs with the Auth emulator; absent, the option is too. */
  onSignInWithTestAccount?: (account: TestAccount) => void;
}) {
  const isSigningInWithGoogle = isSigningIn && signInMethod === 'google';
  return (
    <Card className="w-full max-w-md gap-8 shadow-xl shadow-primary/5">
      <CardHeader className="items-center gap-3 text-center">
        <span className="flex size-12 items-center justify-center rounded-xl bg-primary text-primary-foreground shadow-md shadow-primary/30">
          <KeyRound className="size-6" aria-hidden="true" />
        </span>
        <h1 className="text-2xl font-bold tracking-tight">{SIGN_IN_TEXTS[purpose].heading}</h1>
        <CardDescription className="text-balance">
          {SIGN_IN_TEXTS[purpose].description}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Button
          size="lg"
          variant="outline"
          className="w-full"
          disabled={isSigningIn}
          aria-busy={isSigningInWithGoogle}
          onClick={onSignIn}
        >
          {isSigningInWithGoogle ? <Spinner /> : <GoogleIcon className="size-5" />}
          {isSigningInWithGoogle ? 'Authenticating...' : 'Continue with Google'}
        </Button>
        <p className="flex items-center justify-center gap-1.5 text-xs text-muted-foreground">
          <ShieldCheck className="size-3.5" aria-hidden="true" />
          Google sign-in, secured by Firebase Authentication
        </p>
        {onSignInWithTestAccount && (
          <TestAccountSignIn
            isDisabled={isSigningIn}
            isSigningIn={isSigningIn && signInMethod === 'test-account'}
            onSignIn={onSignInWithTestAccount}
          />
        )}
      </CardContent>
    </Card>
  );
}
