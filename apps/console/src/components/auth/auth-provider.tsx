import { currentUserSchema, firebaseLoginResponseSchema } from '@latchkey/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { User, UserCredential } from 'firebase/auth';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { CURRENT_USER_QUERY_KEY } from '@/hooks/owner-query-keys.ts';
import type { AuthContextValue } from '@/hooks/use-auth.ts';
import { toast } from '@/hooks/use-toast.ts';
import { clearStoredAccount, readStoredAccountId, storeAccount } from '@/lib/account-storage.ts';
import { apiRequest, getQueryFn, isUnauthorizedError } from '@/lib/api.ts';
import type * as FirebaseSdk from '@/lib/firebase.ts';
import type { FirebaseServices } from '@/lib/firebase.ts';
import { readSafeNextPath } from '@/lib/next-path.ts';
import {
  TEST_ACCOUNT_SIGN_IN_FAILED,
  testAccountClaims,
  type TestAccount,
} from '@/lib/test-account.ts';
import { useIsFirebaseWanted } from './use-is-firebase-wanted.ts';

/** The success toast stays readable this long before leaving the page. */
export const SIGN_IN_REDIRECT_DELAY_MS = 1500;

/**
 * 'sign-in': the person just signed in with Google on the sign-in page; they get the toasts
 * and, after SIGN_IN_REDIRECT_DELAY_MS, the redirect.
 * 'session-recovery': Firebase restored a Google user but the server has no session for it
 * (expired, or cleared by a server restart). Exchanging once, quietly, avoids stranding the
 * owner in a state where Firebase says "signed in" and every server call says 401.
 */
type ExchangeMode = 'sign-in' | 'session-recovery';

/**
 * The Firebase SDK (through lib/firebase.ts) and its services, once loaded. It is imported when
 * the controller mounts, not with it: a browser whose server session is still valid shows the
 * signed-in page without waiting for a third of the console's JavaScript and two round trips.
 */
interface LoadedFirebase {
  sdk: typeof FirebaseSdk;
  services: FirebaseServices;
}

async function loadFirebaseNow(): Promise<LoadedFirebase> {
  const sdk = await import('@/lib/firebase.ts');
  return { sdk, services: await sdk.loadFirebase() };
}

interface ExchangeState {
  uid: string;
  mode: ExchangeMode;
  isRunning: boolean;
}

/**
 * Owns the Firebase session and its exchange for a server session, and reports the resulting
 * authentication state through `onChange`. It renders nothing: DeferredAuthProvider loads
 * this module (and the Firebase SDK with it) after the first paint and provides the state.
 */
export function AuthController({ onChange }: { onChange: (value: AuthContextValue) => void }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [firebase, setFirebase] = useState<LoadedFirebase | null>(null);
  const [firebaseUser, setFirebaseUser] = useState<User | null>(null);
  const [isFirebaseReady, setIsFirebaseReady] = useState(false);
  const [isSigningIn, setIsSigningIn] = useState(false);
  // The last backend exchange, so each Firebase user gets at most one automatic recovery.
  const [exchange, setExchange] = useState<ExchangeState | null>(null);
  // A ref, not state: two triggers in the same tick must not both pass the guard.
  const isExchangeRunningRef = useRef(false);
  const redirectTimerRef = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Read by callbacks that may run before a re-render has delivered `firebase`.
  const firebaseRef = useRef<LoadedFirebase | null>(null);

  // Read once per page load: whether this browser signed in before.
  const [hasStoredAccount] = useState(() => readStoredAccountId() !== null);
  const profileQuery = useQuery({
    queryKey: CURRENT_USER_QUERY_KEY,
    queryFn: getQueryFn({ on401: 'throw', schema: currentUserSchema }),
    // Asked for at once by a browser that signed in before (the answer is usually on its way
    // already: see preloadSignedInVisit), else once Firebase has a user. Held back while a
    // sign-in is being exchanged: before the server has set the session cookie the answer
    // could only be 401.
    enabled: (firebaseUser !== null || (hasStoredAccount && !isFirebaseReady)) && !isSigningIn,
    retry: false,
  });

  const exchangeWithBackend = useCallback(
    async (user: User, mode: ExchangeMode): Promise<void> => {
      if (isExchangeRunningRef.current) return;
      isExchangeRunningRef.current = true;
      setExchange({ uid: user.uid, mode, isRunning: true });
      let isSuccess = false;
      try {
        const idToken = await user.getIdToken();
        const response = await apiRequest('POST', '/api/auth/firebase-login', {
          firebase_token: idToken,
          firebase_uid: user.uid,
          email: user.email,
          display_name: user.displayName,
        });
        const result = firebaseLoginResponseSchema.parse(await response.json());
        if (result.success) {
          isSuccess = true;
          storeAccount({ accountId: result.account_id, email: user.email, firebaseUid: user.uid });
          if (mode === 'sign-in') {
            const success = toast({
              title: 'Success',
              description: 'Login successful! Redirecting...',
            });
            // Back to where a signed-out deep link was going, else home.
            const target = readSafeNextPath(window.location.search) ?? '/';
            redirectTimerRef.current = setTimeout(() => {
              // The toast announces the redirect; once it happened, it would only cover the
              // cards of the page it led to.
              success.dismiss();
              navigate(target);
            }, SIGN_IN_REDIRECT_DELAY_MS);
          }
          // In a session recovery this refetches the profile and waits for it, so the router
          // never briefly treats the owner as signed out. During a sign-in the query is held
          // back and fetches as soon as the sign-in finishes.
          await queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
        } else {
          toast({ variant: 'destructive', title: 'Error', description: result.message });
        }
      } catch (error) {
        console.error('Backend sign-in failed', error);
        toast({
          variant: 'destructive',
          title: 'Error',
          description: 'Failed to authenticate with backend',
        });
      } finally {
        const loaded = firebaseRef.current;
        if (!isSuccess && loaded) {
          // Without a server session the Google identity alone is useless, and keeping it
          // would show "You are now logged in" with no way forward; dropping it (before the
          // busy state clears) brings the sign-in button back so the owner can try again.
          await loaded.sdk.signOutOfFirebase(loaded.services.auth).catch((error: unknown) => {
            console.error('Firebase sign-out after a failed backend sign-in failed', error);
          });
        }
        isExchangeRunningRef.current = false;
        setExchange({ uid: user.uid, mode, isRunning: false });
        if (mode === 'sign-in') setIsSigningIn(false);
      }
    },
    [navigate, queryClient],
  );

  // The mount-time effect below outlives renders; it reads the latest function through this ref.
  const exchangeRef = useRef(exchangeWithBackend);
  useEffect(() => {
    exchangeRef.current = exchangeWithBackend;
  }, [exchangeWithBackend]);

  const isFirebaseWanted = useIsFirebaseWanted({
    hasStoredAccount,
    profileStatus: profileQuery.status,
  });

  useEffect(() => {
    if (!isFirebaseWanted) return;
    let isCancelled = false;
    let unsubscribe: () => void = () => {};

    loadFirebaseNow()
      .then(async (loaded) => {
        if (isCancelled) return;
        const { sdk, services } = loaded;
        firebaseRef.current = loaded;
        setFirebase(loaded);
        // A Google redirect sign-in (the popup fallback) finishes on this page load.
        let redirectUser: User | null = null;
        try {
          const result = await sdk.finishRedirectSignIn(services.auth);
          redirectUser = result?.user ?? null;
        } catch (error) {
          console.error('Google redirect sign-in failed', error);
          toast({ variant: 'destructive', title: 'Error', description: 'Authentication failed' });
        }
        if (isCancelled) return;
        if (redirectUser) {
          setIsSigningIn(true);
          void exchangeRef.current(redirectUser, 'sign-in');
        }
        unsubscribe = sdk.watchAuthState(services.auth, (user) => {
          setFirebaseUser(user);
          setIsFirebaseReady(true);
        });
      })
      .catch((error: unknown) => {
        // Without the runtime config nobody can sign in, but the public pages still work.
        console.error('Could not load the Firebase configuration', error);
        if (!isCancelled) setIsFirebaseReady(true);
      });

    return () => {
      isCancelled = true;
      unsubscribe();
    };
  }, [isFirebaseWanted]);

  useEffect(
    () => () => {
      if (redirectTimerRef.current) clearTimeout(redirectTimerRef.current);
    },
    [],
  );

  const startSignIn = useCallback(
    async (
      performSignIn: (firebase: LoadedFirebase) => Promise<UserCredential>,
      failureDescription = 'Failed to initiate Google login',
    ) => {
      setIsSigningIn(true);
      let credential: UserCredential;
      try {
        if (!firebase) throw new Error('Firebase is not configured');
        credential = await performSignIn(firebase);
      } catch (error) {
        setIsSigningIn(false);
        if (firebase?.sdk.isUserCancellation(error) !== true) {
          console.error('Sign-in failed', error);
          toast({ variant: 'destructive', title: 'Error', description: failureDescription });
        }
        throw error;
      }
      await exchangeWithBackend(credential.user, 'sign-in');
    },
    [exchangeWithBackend, firebase],
  );

  const signInWithGoogle = useCallback(async () => {
    await startSignIn(({ sdk, services }) => sdk.signInWithGoogle(services.auth)).catch(() => {
      // Already reported to the person by startSignIn.
    });
  }, [startSignIn]);

  const canSignInWithTestAccount = firebase?.services.isEmulator === true;

  // Offline sign-in for a local install: the emulator takes an unsigned Google credential, so
  // no Google script (and no internet) is involved. Real Firebase would refuse the credential;
  // the check keeps the console from even trying when the runtime config names no emulator.
  const signInWithTestAccount = useCallback(
    async (account: TestAccount) => {
      await startSignIn(({ sdk, services }) => {
        if (!services.isEmulator) throw new Error('Test accounts need the Firebase Auth emulator');
        return sdk.signInWithEmulatorGoogleClaims(services.auth, testAccountClaims(account));
      }, TEST_ACCOUNT_SIGN_IN_FAILED).catch(() => {
        // Already reported to the person by startSignIn.
      });
    },
    [startSignIn],
  );

  // Only against the emulator: browser tests cannot reach Google's popup, so they sign in
  // with fake Google claims and then run exactly the flow the popup would.
  useEffect(() => {
    if (!firebase?.services.isEmulator) return;
    window.__latchkeyEmulator = {
      signInWithGoogleClaims: (claims) =>
        startSignIn(({ sdk, services }) =>
          sdk.signInWithEmulatorGoogleClaims(services.auth, claims),
        ),
    };
    return () => {
      delete window.__latchkeyEmulator;
    };
  }, [firebase, startSignIn]);

  const signOut = useCallback(async () => {
    try {
      // Loaded now if the page never needed it: a Google user left behind in this browser
      // would quietly sign the owner back in on the next visit.
      const loaded = firebase ?? (await loadFirebaseNow());
      await loaded.sdk.signOutOfFirebase(loaded.services.auth);
    } catch (error) {
      console.error('Firebase sign-out failed', error);
    }
    clearStoredAccount();
    // A full-page navigation: the server clears the session cookie and redirects to /.
    window.location.href = '/api/logout';
  }, [firebase]);

  const hasProfileUnauthorized = isUnauthorizedError(profileQuery.error);
  const needsSessionRecovery =
    firebaseUser !== null &&
    hasProfileUnauthorized &&
    !isSigningIn &&
    exchange?.uid !== firebaseUser.uid;

  useEffect(() => {
    if (needsSessionRecovery && firebaseUser) {
      void exchangeWithBackend(firebaseUser, 'session-recovery');
    }
  }, [needsSessionRecovery, firebaseUser, exchangeWithBackend]);

  // A session the server confirms (the profile asked for as the page started) is enough to show
  // the signed-in pages while Firebase restores its user behind them: Firebase is needed only to
  // sign in again. Should it then find no user, the owner is signed out, as before.
  const hasConfirmedSession = profileQuery.isSuccess;
  const isResolving =
    (!isFirebaseReady && !hasConfirmedSession) ||
    (firebaseUser !== null && profileQuery.isPending) ||
    needsSessionRecovery ||
    (exchange?.mode === 'session-recovery' && exchange.isRunning);
  // The full-screen spinner is for the first answer only. Later changes (a sign-in on the
  // sign-in page) keep the current page on screen, which shows its own busy state.
  const [hasResolvedOnce, setHasResolvedOnce] = useState(false);
  if (!hasResolvedOnce && !isResolving) setHasResolvedOnce(true);

  const user =
    hasConfirmedSession && (firebaseUser !== null || !isFirebaseReady) ? profileQuery.data : null;

  const value = useMemo<AuthContextValue>(
    () => ({
      firebaseUser,
      user,
      isLoading: !hasResolvedOnce,
      isAuthenticated: user !== null,
      isSigningIn,
      signInWithGoogle,
      canSignInWithTestAccount,
      signInWithTestAccount,
      signOut,
    }),
    [
      firebaseUser,
      user,
      hasResolvedOnce,
      isSigningIn,
      signInWithGoogle,
      canSignInWithTestAccount,
      signInWithTestAccount,
      signOut,
    ],
  );

  useEffect(() => onChange(value), [onChange, value]);
  return null;
}
