import type { CurrentUser } from '@latchkey/contracts';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ThemeProvider } from '@/components/theme/theme-provider.tsx';
import { Toaster } from '@/components/ui/toaster.tsx';
import { TooltipProvider } from '@/components/ui/tooltip.tsx';
import { AuthContext, type AuthContextValue } from '@/hooks/use-auth.ts';
import { createQueryClient } from '@/lib/query-client.ts';

export function createAuthValue(overrides: Partial<AuthContextValue> = {}): AuthContextValue {
  return {
    firebaseUser: null,
    user: null,
    isLoading: false,
    isAuthenticated: false,
    isSigningIn: false,
    signInWithGoogle: async () => {},
    canSignInWithTestAccount: false,
    signInWithTestAccount: async () => {},
    signOut: async () => {},
    ...overrides,
  };
}

export function createCurrentUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'account-1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    userPermissions: { role: 'owner', permissions: [] },
    ...overrides,
  };
}

/** The authentication state of `user` signed in. */
export function signedInAuth(user: CurrentUser = createCurrentUser()): AuthContextValue {
  return createAuthValue({ user, isAuthenticated: true });
}

/**
 * Renders inside the app's providers, at `path`, with a fake authentication state and, with
 * `toaster`, the toasts the app shows beside it. The query client is answered so a test can
 * see which queries exist (a query never created is a request that cannot be sent).
 */
export function renderWithProviders(
  ui: ReactElement,
  {
    path = '/',
    auth = createAuthValue(),
    toaster = false,
  }: { path?: string; auth?: AuthContextValue; toaster?: boolean } = {},
): RenderResult & { location: ReturnType<typeof memoryLocation>; queryClient: QueryClient } {
  const location = memoryLocation({ path, record: true });
  const queryClient = createQueryClient();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <TooltipProvider>
          <AuthContext value={auth}>
            <Router hook={location.hook}>
              {ui}
              {toaster && <Toaster />}
            </Router>
          </AuthContext>
        </TooltipProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { ...result, location, queryClient };
}

/** Renders as a signed-in owner, with the toasts the app shows beside the page. */
export function renderSignedIn(ui: ReactElement, { path }: { path?: string } = {}) {
  return renderWithProviders(ui, { path, auth: signedInAuth(), toaster: true });
}
