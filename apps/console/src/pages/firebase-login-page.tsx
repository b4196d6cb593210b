import { useState } from 'react';
import { useSearch } from 'wouter';
import { SignInCard, type SignInMethod } from '@/components/auth/sign-in-card.tsx';
import { WelcomeCard } from '@/components/auth/welcome-card.tsx';
import { SignedInHeader } from '@/components/layout/signed-in-header.tsx';
import { SignedOutHeader } from '@/components/layout/signed-out-header.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { readSafeNextPath } from '@/lib/next-path.ts';

export function FirebaseLoginPage() {
  const {
    firebaseUser,
    isAuthenticated,
    isSigningIn,
    signInWithGoogle,
    canSignInWithTestAccount,
    signInWithTestAccount,
  } = useAuth();
  // A Google redirect finishing on page load is a Google sign-in too, hence the default.
  const [signInMethod, setSignInMethod] = useState<SignInMethod>('google');
  // Only a target sign-in will really go on to (another site's is ignored) changes the text.
  const isGoingOn = readSafeNextPath(useSearch()) !== null;

  return (
    <div className="relative flex min-h-screen flex-col overflow-x-clip bg-background">
      <div aria-hidden="true" className="pointer-events-none absolute inset-0">
        <div className="absolute top-0 left-1/2 h-[28rem] w-[48rem] -translate-x-1/2 rounded-full bg-primary/10 blur-3xl" />
      </div>
      {isAuthenticated ? <SignedInHeader /> : <SignedOutHeader />}
      <main className="relative flex flex-1 items-center justify-center px-4 py-16">
        {firebaseUser ? (
          <WelcomeCard
            displayName={firebaseUser.displayName}
            email={firebaseUser.email}
            isFinishingSignIn={isSigningIn}
          />
        ) : (
          <SignInCard
            isSigningIn={isSigningIn}
            purpose={isGoingOn ? 'continue' : 'welcome'}
            signInMethod={signInMethod}
            onSignIn={() => {
              setSignInMethod('google');
              void signInWithGoogle();
            }}
            onSignInWithTestAccount={
              canSignInWithTestAccount
                ? (account) => {
                    setSignInMethod('test-account');
                    void signInWithTestAccount(account);
                  }
                : undefined
            }
          />
        )}
      </main>
    </div>
  );
}
