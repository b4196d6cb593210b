import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  TEST_ACCOUNT_EMAIL_INVALID,
  TEST_ACCOUNT_EMAIL_REQUIRED,
  TEST_ACCOUNT_NAME_REQUIRED,
} from '@/lib/test-account.ts';
import { TestAccountSignIn } from './test-account-sign-in.tsx';

function renderForm({ isDisabled = false, isSigningIn = false } = {}) {
  const onSignIn = vi.fn();
  const user = userEvent.setup();
  render(
    <TestAccountSignIn isDisabled={isDisabled} isSigningIn={isSigningIn} onSignIn={onSignIn} />,
  );
  return { onSignIn, user };
}

/** Opens the disclosure with the keyboard, as someone without a mouse would. */
async function openWithKeyboard(user: ReturnType<typeof userEvent.setup>) {
  const toggle = screen.getByRole('button', { name: 'Sign in with a test account' });
  toggle.focus();
  await user.keyboard('{Enter}');
  return toggle;
}

describe('TestAccountSignIn', () => {
  it('is a closed disclosure until opened, then shows the fields and the offline hint', async () => {
    const { user } = renderForm();
    const toggle = screen.getByRole('button', { name: 'Sign in with a test account' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();

    await openWithKeyboard(user);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const form = screen.getByRole('form', { name: 'Sign in with a test account' });
    expect(toggle.getAttribute('aria-controls')).toBe(form.id);
    expect(form.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText(/Works offline, and only on a local install/)).toBeTruthy();
    // The next Tab stop after the toggle is the first field.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
  });

  it('says what is missing, marks the fields and does not sign in', async () => {
    const { onSignIn, user } = renderForm();
    await openWithKeyboard(user);
    await user.click(screen.getByRole('button', { name: 'Continue with test account' }));

    const name = screen.getByRole('textbox', { name: 'Name' });
    const email = screen.getByRole('textbox', { name: 'E-mail' });
    expect(screen.getByText(TEST_ACCOUNT_NAME_REQUIRED)).toBeTruthy();
    expect(screen.getByText(TEST_ACCOUNT_EMAIL_REQUIRED)).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    // Read with the field, and the first field to fix has the focus.
    expect((name as HTMLInputElement).labels?.length).toBe(1);
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toBe(
      TEST_ACCOUNT_NAME_REQUIRED,
    );
    expect(document.activeElement).toBe(name);
    expect(onSignIn).not.toHaveBeenCalled();

    // Typing in a field clears its message; the other stays until fixed.
    await user.type(name, 'Ada');
    expect(screen.queryByText(TEST_ACCOUNT_NAME_REQUIRED)).toBeNull();
    expect(screen.getByText(TEST_ACCOUNT_EMAIL_REQUIRED)).toBeTruthy();
  });

  it.each(['ada', 'ada@example', 'ada @example.com', '@example.com'])(
    'refuses the malformed e-mail %j',
    async (malformed) => {
      const { onSignIn, user } = renderForm();
      await openWithKeyboard(user);
      await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada Lovelace');
      const email = screen.getByRole('textbox', { name: 'E-mail' });
      await user.type(email, `${malformed}{Enter}`);

      expect(screen.getByText(TEST_ACCOUNT_EMAIL_INVALID)).toBeTruthy();
      expect(email.getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(email);
      expect(onSignIn).not.toHaveBeenCalled();
    },
  );

  it('signs in with the name and e-mail typed, from the keyboard', async () => {
    const { onSignIn, user } = renderForm();
    await openWithKeyboard(user);
    await user.tab();
    await user.keyboard('Ada Lovelace');
    await user.tab();
    await user.keyboard('ada@example.com{Enter}');

    expect(onSignIn).toHaveBeenCalledTimes(1);
    expect(onSignIn).toHaveBeenCalledWith({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(screen.queryByText(TEST_ACCOUNT_EMAIL_INVALID)).toBeNull();
  });

  it('waits while a sign-in is under way, and shows its own busy state', async () => {
    const { onSignIn, user } = renderForm({ isDisabled: true, isSigningIn: true });
    await openWithKeyboard(user);
    const submit = screen.getByRole('button', { name: 'Authenticating...' });
    expect(submit.hasAttribute('disabled')).toBe(true);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'ada@example.com{Enter}');
    expect(onSignIn).not.toHaveBeenCalled();
  });
});
