import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AuthContext } from '@/hooks/use-auth.ts';
import { createAuthValue, renderWithProviders } from '@/test/render-with-providers.tsx';
import { FirebaseLoginPage } from './firebase-login-page.tsx';

/** The page with an authentication state whose test-account sign-in stays under way. */
function PageSigningInWhenAsked() {
  const [isSigningIn, setIsSigningIn] = useState(false);
  const auth = createAuthValue({
    canSignInWithTestAccount: true,
    isSigningIn,
    signInWithTestAccount: async () => setIsSigningIn(true),
  });
  return (
    <AuthContext value={auth}>
      <FirebaseLoginPage />
    </AuthContext>
  );
}

describe('FirebaseLoginPage', () => {
  it('offers only Google sign-in unless the server runs with the Auth emulator', () => {
    renderWithProviders(<FirebaseLoginPage />, {
      path: '/firebase-login',
      auth: createAuthValue({ canSignInWithTestAccount: false }),
    });

    expect(screen.getByRole('heading', { name: 'Create Your Account' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in with a test account' })).toBeNull();
    expect(screen.queryByText(/test sign-in service/)).toBeNull();
  });

  it('greets a deep link as someone signing in to go on, and ignores a target elsewhere', () => {
    const goingOn = renderWithProviders(<FirebaseLoginPage />, {
      path: '/firebase-login?next=%2Fblacklist',
    });
    expect(screen.getByRole('heading', { name: 'Sign In to Continue' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
    goingOn.unmount();

    renderWithProviders(<FirebaseLoginPage />, {
      path: '/firebase-login?next=%2F%2Fevil.example%2F',
    });
    expect(screen.getByRole('heading', { name: 'Create Your Account' })).toBeTruthy();
  });

  it('also offers a test account with the emulator, and signs in with the name and e-mail', async () => {
    const signInWithTestAccount = vi.fn(async () => {});
    const signInWithGoogle = vi.fn(async () => {});
    const user = userEvent.setup();
    renderWithProviders(<FirebaseLoginPage />, {
      path: '/firebase-login',
      auth: createAuthValue({
        canSignInWithTestAccount: true,
        signInWithTestAccount,
        signInWithGoogle,
      }),
    });

    // The spec's texts stay as they are; the test account comes after them.
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
    expect(screen.getByText('Google sign-in, secured by Firebase Authentication')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Sign in with a test account' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada Lovelace');
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue with test account' }));

    expect(signInWithTestAccount).toHaveBeenCalledWith({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    expect(signInWithGoogle).not.toHaveBeenCalled();
  });

  it('shows the busy state on the button that was pressed', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PageSigningInWhenAsked />, { path: '/firebase-login' });
    await user.click(screen.getByRole('button', { name: 'Sign in with a test account' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'ada@example.com{Enter}');

    const submit = await screen.findByRole('button', { name: 'Authenticating...' });
    expect(submit.getAttribute('type')).toBe('submit');
    const google = screen.getByRole('button', { name: 'Continue with Google' });
    expect(google.hasAttribute('disabled')).toBe(true);
    expect(google.getAttribute('aria-busy')).toBe('false');
  });
});
