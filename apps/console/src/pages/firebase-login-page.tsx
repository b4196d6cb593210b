import type { CurrentUser } from '@latchkey/contracts';
import { useState } from 'react';
import { useSearch } from 'wouter';
import { SignInCard, type SignInMethod } from '@/components/auth/sign-in-card.tsx';
import { WelcomeCard } from '@/components/auth/welcome-card.tsx';
import { SignedInHeader } from '@/components/layout/signed-in-header.tsx';
import { SignedOutHeader } from '@/components/layout/signed-out-header.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { readSafeNextPath } from '@/lib/next-path.ts';

function fullNameOf(user: CurrentUser | null): string | null {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ');
  return name === '' ? null : name;
}

export function FirebaseLoginPage() {
  const {
    firebaseUser,
    user,
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
        {/* The server's profile stands in while Firebase restores its user on a revisit. */}
        {firebaseUser || user ? (
          <WelcomeCard
            displayName={firebaseUser ? firebaseUser.displayName : fullNameOf(user)}
            email={firebaseUser ? firebaseUser.email : (user?.email ?? null)}
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
