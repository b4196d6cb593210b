import type { CurrentUser } from '@latchkey/contracts';
import type { User } from 'firebase/auth';
import { createContext, useContext } from 'react';
import type { TestAccount } from '@/lib/test-account.ts';

export interface AuthContextValue {
  /** The Firebase (Google) identity, once Firebase has restored or created one. */
  firebaseUser: User | null;
  /** The owner's profile from our server; present only with a valid server session. */
  user: CurrentUser | null;
  /** True until the first authentication state is known; the router waits for it. */
  isLoading: boolean;
  /** A Firebase user exists and the server accepted its session. */
  isAuthenticated: boolean;
  /** A Google sign-in or the backend exchange that follows it is in progress. */
  isSigningIn: boolean;
  signInWithGoogle: () => Promise<void>;
  /**
   * The server runs with the Firebase Auth emulator (its runtime config says so), so a test
   * account can sign in without Google and without the internet. Never true in production.
   */
  canSignInWithTestAccount: boolean;
  /** Signs in to the emulator as the test account, then exchanges it like a Google sign-in. */
  signInWithTestAccount: (account: TestAccount) => Promise<void>;
  signOut: () => Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used inside <AuthProvider>');
  return context;
}
