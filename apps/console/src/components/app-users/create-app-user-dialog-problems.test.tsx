import { USERNAME_AND_PASSWORD_REQUIRED } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { jsonResponse, stubRefusingOwnerApi } from '@/test/stub-owner-api.ts';
import { ALL_REQUIRED_FIELDS_MESSAGE, CreateAppUserDialog } from './create-app-user-dialog.tsx';

const USERS_PATH = '/api/applications/7/users';

/** The server's runtime config (the default password minimum); users are created as asked. */
function stubServer() {
  return stubRefusingOwnerApi(({ method, url, body }) => {
    if (url.pathname === '/api/config') {
      return jsonResponse(200, {
        firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-latchkey' },
        authEmulatorUrl: null,
        endUserPasswordMinLength: 8,
        mailDelivery: 'off',
      });
    }
    if (method === 'POST' && url.pathname === USERS_PATH) return jsonResponse(201, body);
    return undefined;
  });
}

async function openDialog(variant: 'dashboard' | 'application') {
  renderWithProviders(<CreateAppUserDialog applicationId={7} variant={variant} />, {
    auth: signedInAuth(),
    toaster: true,
  });
  fireEvent.click(screen.getByRole('button', { name: 'Add User' }));
  const name = variant === 'dashboard' ? 'Add User' : 'Create New User';
  return within(await screen.findByRole('dialog', { name }));
}

/** The words said below a field: its problem, found by the id the field names it by. */
const problemOf = (control: HTMLElement) =>
  document.getElementById(`${control.id}-problem`)?.textContent ?? null;

const posts = (sent: { method: string; path: string }[]) =>
  sent.filter(({ method, path }) => method === 'POST' && path === USERS_PATH);

describe('CreateAppUserDialog: problems at their fields', { timeout: 30_000 }, () => {
  resetEachTest();

  it('marks every required field left blank at once, focusing the first', async () => {
    const { sent } = stubServer();
    const dialog = await openDialog('dashboard');
    const username = dialog.getByLabelText(/^Username/);
    const email = dialog.getByLabelText(/^Email/);
    const password = dialog.getByLabelText(/^Password/);
    fireEvent.change(email, { target: { value: 'not an address' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create User' }));

    expect(problemOf(username)).toBe(ALL_REQUIRED_FIELDS_MESSAGE);
    expect(problemOf(email)).toBe('Please enter a valid e-mail address');
    expect(problemOf(password)).toBe(ALL_REQUIRED_FIELDS_MESSAGE);
    for (const field of [username, email, password]) {
      expect(field.getAttribute('aria-invalid')).toBe('true');
    }
    expect(dialog.getByLabelText(/^HWID/).hasAttribute('aria-invalid')).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(username));

    // Mending a field forgets its problem; the others stay until the next try.
    fireEvent.change(username, { target: { value: 'alice' } });
    expect(problemOf(username)).toBeNull();
    expect(problemOf(password)).toBe(ALL_REQUIRED_FIELDS_MESSAGE);
    expect(posts(sent)).toEqual([]);
  });

  it("says the management page's own words at the blank username", async () => {
    const { sent } = stubServer();
    const dialog = await openDialog('application');
    const username = dialog.getByLabelText(/^Username/);
    fireEvent.change(username, { target: { value: '   ' } });
    fireEvent.change(dialog.getByLabelText(/^Password/), { target: { value: 'long secret' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create User' }));
    expect(dialog.getByRole('alert').textContent).toBe(USERNAME_AND_PASSWORD_REQUIRED);
    expect(problemOf(username)).toBe(USERNAME_AND_PASSWORD_REQUIRED);
    expect(posts(sent)).toEqual([]);
  });

  it("places the server's refusal at the field it names; one naming none stays a toast", async () => {
    const { sent, refuseNext } = stubServer();
    const dialog = await openDialog('application');
    const username = dialog.getByLabelText(/^Username/);
    const hwid = dialog.getByLabelText(/^HWID/);
    fireEvent.change(username, { target: { value: 'bob' } });
    fireEvent.change(dialog.getByLabelText(/^Password/), { target: { value: 'long secret' } });
    fireEvent.change(hwid, { target: { value: 'PC-1' } });
    refuseNext(
      'POST',
      USERS_PATH,
      jsonResponse(400, {
        message: 'hwid: Must be one line',
        code: 'BAD_REQUEST',
        fields: [{ field: 'hwid', message: 'Must be one line' }],
      }),
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Create User' }));

    await waitFor(() => expect(problemOf(hwid)).toBe('Must be one line'));
    expect(hwid.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(hwid));
    expect(username.hasAttribute('aria-invalid')).toBe(false);

    fireEvent.change(hwid, { target: { value: 'PC-2' } });
    refuseNext(
      'POST',
      USERS_PATH,
      jsonResponse(409, { message: 'Username already exists', code: 'CONFLICT' }),
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Create User' }));
    expect(await findToast('Username already exists')).toBeTruthy();
    expect(dialog.queryByRole('alert')).toBeNull();
    expect(posts(sent)).toHaveLength(2);
    expect(screen.getByRole('dialog', { name: 'Create New User' })).toBeTruthy();
  });
});
