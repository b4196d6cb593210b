import type { RuntimeConfig } from '@latchkey/contracts';
import { getApp, getApps, initializeApp, type FirebaseApp } from 'firebase/app';
import {
  GoogleAuthProvider,
  browserLocalPersistence,
  browserPopupRedirectResolver,
  browserSessionPersistence,
  connectAuthEmulator,
  getAuth,
  getRedirectResult,
  indexedDBLocalPersistence,
  initializeAuth,
  onAuthStateChanged,
  signInWithCredential,
  signInWithPopup,
  signInWithRedirect,
  signOut,
  type Auth,
  type User,
  type UserCredential,
} from 'firebase/auth';
import { fetchRuntimeConfig } from './runtime-config.ts';

export interface FirebaseServices {
  auth: Auth;
  config: RuntimeConfig;
  isEmulator: boolean;
}

/** Claims of the unsigned Google ID token the Auth emulator accepts in place of a real one. */
export interface EmulatorGoogleClaims {
  sub: string;
  email: string;
  name?: string;
}

declare global {
  interface Window {
    /**
     * Present only while the console talks to the Firebase Auth emulator: browser tests use
     * it because the Google popup needs apis.google.com, which the test machines cannot reach.
     */
    __latchkeyEmulator?: {
      signInWithGoogleClaims(claims: EmulatorGoogleClaims): Promise<void>;
    };
  }
}

let servicesPromise: Promise<FirebaseServices> | null = null;

async function initializeFirebase(): Promise<FirebaseServices> {
  // Fetched at run time rather than baked into the bundle: one build serves the emulator
  // locally and a real Firebase project in production.
  const config = await fetchRuntimeConfig();
  // getApps() guards against a second initializeApp when Vite hot-reloads this module.
  const app = getApps().length > 0 ? getApp() : initializeApp(config.firebase);
  const isEmulator = config.authEmulatorUrl !== null;
  const auth = isEmulator ? initializeEmulatorAuth(app) : getAuth(app);
  if (config.authEmulatorUrl !== null && !auth.emulatorConfig) {
    connectAuthEmulator(auth, config.authEmulatorUrl, { disableWarnings: true });
  }
  return { auth, config, isEmulator };
}

/**
 * Auth as getAuth sets it up, less the popup and redirect helper: on a phone getAuth loads it
 * at once, and with it Google's script from apis.google.com, which a local install may not
 * reach (a failed request and a console error on every page). Test accounts never need it;
 * the Google popup and redirect name the helper themselves, so it loads when they are used.
 */
function initializeEmulatorAuth(app: FirebaseApp): Auth {
  return initializeAuth(app, {
    persistence: [indexedDBLocalPersistence, browserLocalPersistence, browserSessionPersistence],
  });
}

/** Loads the runtime config and Firebase once; a failed attempt may be retried later. */
export function loadFirebase(): Promise<FirebaseServices> {
  servicesPromise ??= initializeFirebase().catch((error: unknown) => {
    servicesPromise = null;
    throw error;
  });
  return servicesPromise;
}

function createGoogleProvider(): GoogleAuthProvider {
  const provider = new GoogleAuthProvider();
  // Always show the account chooser, so an owner with several Google accounts picks the
  // environment deliberately instead of silently reusing the last one.
  provider.setCustomParameters({ prompt: 'select_account' });
  return provider;
}

function getFirebaseErrorCode(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const { code } = error;
    if (typeof code === 'string') return code;
  }
  return null;
}

// Only environments where a popup cannot work fall back to a full-page redirect.
// 'auth/cancelled-popup-request' means a newer popup replaced this one, so it is not one.
const REDIRECT_FALLBACK_CODES = new Set([
  'auth/popup-blocked',
  'auth/operation-not-supported-in-this-environment',
]);

// Ways the person backed out themselves: not failures worth an error toast.
const USER_CANCELLED_CODES = new Set(['auth/popup-closed-by-user', 'auth/cancelled-popup-request']);

export function isUserCancellation(error: unknown): boolean {
  const code = getFirebaseErrorCode(error);
  return code !== null && USER_CANCELLED_CODES.has(code);
}

/**
 * Google sign-in with a popup, or a redirect where popups are blocked or unsupported. After a
 * redirect the page unloads; the result is picked up by getRedirectResult on the next load.
 */
export async function signInWithGoogle(auth: Auth): Promise<UserCredential> {
  const provider = createGoogleProvider();
  try {
    return await signInWithPopup(auth, provider, browserPopupRedirectResolver);
  } catch (error) {
    const code = getFirebaseErrorCode(error);
    if (code !== null && REDIRECT_FALLBACK_CODES.has(code)) {
      return signInWithRedirect(auth, provider, browserPopupRedirectResolver);
    }
    throw error;
  }
}

/**
 * The user of a Google redirect sign-in that this page load finishes, if any. Only a pending
 * redirect (which the SDK marks in session storage) loads the popup and redirect helper.
 */
export function finishRedirectSignIn(auth: Auth): Promise<UserCredential | null> {
  return getRedirectResult(auth, browserPopupRedirectResolver);
}

/**
 * The Firebase-documented way to sign in to the Auth emulator without Google: an unsigned
 * ID token carrying the claims. The emulator accepts it; real Firebase rejects it.
 */
export function signInWithEmulatorGoogleClaims(
  auth: Auth,
  { sub, email, name }: EmulatorGoogleClaims,
): Promise<UserCredential> {
  const idToken = JSON.stringify({ sub, email, email_verified: true, name });
  return signInWithCredential(auth, GoogleAuthProvider.credential(idToken));
}

/** Calls `next` with the signed-in user, or null, now and after each change. */
export function watchAuthState(auth: Auth, next: (user: User | null) => void): () => void {
  return onAuthStateChanged(auth, next);
}

/** Forgets the Google identity in this browser (the server session is ended apart). */
export function signOutOfFirebase(auth: Auth): Promise<void> {
  return signOut(auth);
}
