import {
  lazy,
  startTransition,
  Suspense,
  useCallback,
  useEffect,
  useState,
  type ReactNode,
} from 'react';
import { AuthContext, type AuthContextValue } from '@/hooks/use-auth.ts';
import { useHasPageLoaded } from '@/hooks/use-has-page-loaded.ts';

/** What the console knows before the authentication code has loaded: nothing yet. */
export const PENDING_AUTH: AuthContextValue = {
  firebaseUser: null,
  user: null,
  isLoading: true,
  isAuthenticated: false,
  isSigningIn: false,
  signInWithGoogle: async () => {},
  canSignInWithTestAccount: false,
  signInWithTestAccount: async () => {},
  signOut: async () => {},
};

// The Firebase SDK and the sign-in flow are a third of the console's JavaScript: loading them
// with the page would hold back the landing page's first paint (at most 120 KB of gzipped JS
// may come before it). They load once the page has painted, while the splash plays.
const AuthController = lazy(() =>
  import('./auth-provider.tsx').then(
    (module) => ({ default: module.AuthController }),
    (error: unknown) => {
      // As when the Firebase settings cannot be fetched: nobody can sign in, but the public
      // pages still work rather than the whole console failing.
      console.error('Could not load the sign-in code', error);
      return { default: AuthUnavailable };
    },
  ),
);

function AuthUnavailable({ onChange }: { onChange: (value: AuthContextValue) => void }) {
  useEffect(() => onChange({ ...PENDING_AUTH, isLoading: false }), [onChange]);
  return null;
}

/**
 * Provides the authentication state, pending until the controller has loaded. The controller
 * is a sibling of the children, not their parent, so its arrival does not remount the page
 * on screen (the splash would start again).
 */
export function DeferredAuthProvider({ children }: { children: ReactNode }) {
  const [value, setValue] = useState<AuthContextValue>(PENDING_AUTH);
  // A transition: the change it brings (the spinner giving way to a whole signed-in page) is
  // rendered in slices that let the browser paint and answer input between them, rather than
  // in one long task.
  const changeValue = useCallback(
    (next: AuthContextValue) => startTransition(() => setValue(next)),
    [],
  );
  const hasPageLoaded = useHasPageLoaded();
  return (
    <AuthContext value={value}>
      {children}
      {hasPageLoaded && (
        <Suspense fallback={null}>
          <AuthController onChange={changeValue} />
        </Suspense>
      )}
    </AuthContext>
  );
}
