import type { RuntimeConfig } from '@latchkey/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import type * as FirebaseAuth from 'firebase/auth';
import type { User } from 'firebase/auth';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { AuthContextValue } from '@/hooks/use-auth.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { createCurrentUser } from '@/test/render-with-providers.tsx';
import { jsonResponse, stubOwnerApi } from '@/test/stub-owner-api.ts';

// The Firebase SDK stands in for itself only where it would reach a server: the app and auth
// instances, the emulator connection, the auth-state listener and the credential sign-in.
// GoogleAuthProvider.credential, which builds the credential, is the real one.
const firebase = vi.hoisted(() => ({
  auth: { name: 'stand-in auth' },
  connectAuthEmulator: vi.fn(),
  signInWithCredential: vi.fn(),
  signOut: vi.fn(async () => {}),
}));

vi.mock('firebase/app', () => ({
  getApps: () => [],
  getApp: () => ({ name: 'stand-in app' }),
  initializeApp: () => ({ name: 'stand-in app' }),
}));

vi.mock('firebase/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof FirebaseAuth>()),
  getAuth: () => firebase.auth,
  initializeAuth: () => firebase.auth,
  connectAuthEmulator: firebase.connectAuthEmulator,
  getRedirectResult: async () => null,
  onAuthStateChanged: (_auth: unknown, next: (user: User | null) => void) => {
    next(null);
    return () => {};
  },
  signInWithCredential: firebase.signInWithCredential,
  signOut: firebase.signOut,
}));

const emulatorUrl = 'http://127.0.0.1:9099';

function runtimeConfig(authEmulatorUrl: string | null): RuntimeConfig {
  return {
    firebase: { apiKey: 'demo-api-key', authDomain: 'd.example.com', projectId: 'demo-latchkey' },
    authEmulatorUrl,
    endUserPasswordMinLength: 8,
    mailDelivery: 'mailbox',
  };
}

const testUser = {
  uid: 'emulator-uid-1',
  email: 'ada@example.com',
  displayName: 'Ada Lovelace',
  getIdToken: async () => 'emulator-id-token',
} as unknown as User;

/**
 * Renders the controller against a stand-in server whose runtime config names
 * `authEmulatorUrl`, and returns the requests it sent and its latest authentication state.
 */
async function renderController(authEmulatorUrl: string | null) {
  const sent = stubOwnerApi(({ method, url }) => {
    if (url.pathname === '/api/config') return jsonResponse(200, runtimeConfig(authEmulatorUrl));
    if (method === 'POST' && url.pathname === '/api/auth/firebase-login') {
      return jsonResponse(200, {
        success: true,
        message: 'Login successful',
        account_id: '00000000-0000-4000-8000-000000000001',
      });
    }
    if (url.pathname === '/api/auth/user') return jsonResponse(200, createCurrentUser());
    return undefined;
  });
  // A fresh module per test: lib/firebase.ts loads the runtime config once per page.
  vi.resetModules();
  const { AuthController } = await import('./auth-provider.tsx');
  const state: { current: AuthContextValue | null } = { current: null };
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <Router hook={memoryLocation({ path: '/firebase-login' }).hook}>
        <AuthController
          onChange={(value) => {
            state.current = value;
          }}
        />
      </Router>
    </QueryClientProvider>,
  );
  await waitFor(() => expect(state.current?.isLoading).toBe(false));
  return { sent, state: state as { current: AuthContextValue }, view };
}

describe('AuthController and test accounts', () => {
  beforeEach(() => {
    firebase.connectAuthEmulator.mockReset();
    firebase.signInWithCredential.mockReset();
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it('offers no test account when the runtime config names no emulator, and signs none in', async () => {
    const { state, view } = await renderController(null);

    expect(state.current.canSignInWithTestAccount).toBe(false);
    expect(firebase.connectAuthEmulator).not.toHaveBeenCalled();
    await act(() => state.current.signInWithTestAccount({ name: 'Ada', email: 'ada@example.com' }));
    expect(firebase.signInWithCredential).not.toHaveBeenCalled();
    expect(state.current.isSigningIn).toBe(false);
    view.unmount();
  });

  it('with the emulator, signs a test account in with a Google credential and exchanges it', async () => {
    firebase.signInWithCredential.mockResolvedValue({ user: testUser });
    const { sent, state, view } = await renderController(emulatorUrl);

    expect(state.current.canSignInWithTestAccount).toBe(true);
    expect(firebase.connectAuthEmulator).toHaveBeenCalledWith(firebase.auth, emulatorUrl, {
      disableWarnings: true,
    });
    await act(() =>
      state.current.signInWithTestAccount({ name: ' Ada Lovelace ', email: 'Ada@Example.com' }),
    );

    expect(firebase.signInWithCredential).toHaveBeenCalledTimes(1);
    const [auth, credential] = firebase.signInWithCredential.mock.calls[0] as [
      unknown,
      { providerId: string; idToken: string },
    ];
    expect(auth).toBe(firebase.auth);
    expect(credential.providerId).toBe('google.com');
    // The unsigned ID token the emulator accepts: the account id follows from the e-mail.
    expect(JSON.parse(credential.idToken)).toEqual({
      sub: 'test-account:ada@example.com',
      email: 'ada@example.com',
      email_verified: true,
      name: 'Ada Lovelace',
    });
    // Then the same path as a Google sign-in: the backend exchange.
    expect(sent).toContainEqual({
      method: 'POST',
      path: '/api/auth/firebase-login',
      body: {
        firebase_token: 'emulator-id-token',
        firebase_uid: 'emulator-uid-1',
        email: 'ada@example.com',
        display_name: 'Ada Lovelace',
      },
    });
    expect(localStorage.getItem('account_id')).toBe('00000000-0000-4000-8000-000000000001');
    view.unmount();
  });

  it('ends the busy state when the emulator refuses or cannot be reached', async () => {
    firebase.signInWithCredential.mockRejectedValue(
      Object.assign(new Error('network'), { code: 'auth/network-request-failed' }),
    );
    const { sent, state, view } = await renderController(emulatorUrl);

    await act(() => state.current.signInWithTestAccount({ name: 'Ada', email: 'ada@example.com' }));
    expect(state.current.isSigningIn).toBe(false);
    expect(sent.some((request) => request.path === '/api/auth/firebase-login')).toBe(false);
    view.unmount();
  });
});

describe('AuthController on a revisit', () => {
  beforeEach(() => {
    firebase.signOut.mockClear();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    localStorage.setItem('account_id', '00000000-0000-4000-8000-000000000001');
  });

  it("shows the signed-in pages on the server's word, and only later asks Firebase", async () => {
    const { sent, state, view } = await renderController(emulatorUrl);

    // Signed in from the profile alone: Firebase (and the runtime config it needs) not asked.
    expect(state.current.isAuthenticated).toBe(true);
    expect(state.current.user?.email).toBe(createCurrentUser().email);
    expect(sent.map(({ path }) => path)).toEqual(['/api/auth/user']);

    // Once the page has had its moment, Firebase loads; this stand-in has no user, so the owner
    // is signed out, as a browser that lost its Google sign-in always was.
    await waitFor(() => expect(sent.map(({ path }) => path)).toContain('/api/config'), {
      timeout: 8_000,
    });
    await waitFor(() => expect(state.current.isAuthenticated).toBe(false));
    view.unmount();
  });

  it('signs out of Firebase too when it had not loaded yet', async () => {
    const { sent, state, view } = await renderController(emulatorUrl);
    expect(sent.map(({ path }) => path)).not.toContain('/api/config');

    await act(() => state.current.signOut());
    expect(firebase.signOut).toHaveBeenCalledWith(firebase.auth);
    expect(localStorage.getItem('account_id')).toBeNull();
    view.unmount();
  });
});
