import type { AppUser } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EMAIL_MARKED_VERIFIED } from '@/hooks/use-app-users.ts';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import {
  createApplication,
  createAppUserRow,
  jsonResponse,
  stubOwnerApi,
} from '@/test/stub-owner-api.ts';
import { EditAppUserDialog } from './edit-app-user-dialog.tsx';
import { ADDRESS_CHANGE_CLEARS_VERIFICATION } from './email-verification-status.tsx';

const orbit = createApplication({ id: 7, requireVerifiedEmail: true });
const pilot = createAppUserRow(1, { email: 'pilot@example.com', emailVerified: false });
const USER_PATH = `/api/applications/7/users/${pilot.id}`;

/** The user's lists (empty), and verify-email answering with `answer`. */
function stubUserApi(answer = () => jsonResponse(200, { ...pilot, emailVerified: true })) {
  return stubOwnerApi(({ method, path }) => {
    if (path === `${USER_PATH}/verify-email` && method === 'POST') return answer();
    if (/\/(devices|subscriptions|variables)$/.test(path)) return jsonResponse(200, []);
    if (path === '/api/applications/7/plans') return jsonResponse(200, []);
    return undefined;
  });
}

function renderDialog(user: AppUser = pilot) {
  renderWithProviders(
    <EditAppUserDialog application={orbit} user={user} open onOpenChange={() => {}} />,
    { auth: signedInAuth(), toaster: true },
  );
  return within(screen.getByRole('dialog', { name: 'Edit User' }));
}

const markButton = (dialog: ReturnType<typeof within>) =>
  dialog.queryByRole('button', { name: 'Mark Verified' });

describe('EditAppUserDialog: e-mail verification', () => {
  resetEachTest(stubResizeObserver);

  it('marks an unverified address verified at once, and says so', async () => {
    const sent = stubUserApi();
    const dialog = renderDialog();
    const email = dialog.getByLabelText('Email');
    expect(dialog.getByTestId('email-verification').textContent).toBe('Not verified');
    expect(email.getAttribute('aria-describedby')).toBe(
      dialog.getByTestId('email-verification').id,
    );

    fireEvent.click(markButton(dialog)!);
    expect(await findToast(EMAIL_MARKED_VERIFIED)).toBeTruthy();
    await waitFor(() =>
      expect(dialog.getByTestId('email-verification').textContent).toBe('Verified'),
    );
    expect(markButton(dialog)).toBeNull();
    expect(document.activeElement).toBe(email);
    expect(sent.filter(({ method }) => method === 'POST')).toEqual([
      expect.objectContaining({ path: `${USER_PATH}/verify-email`, body: undefined }),
    ]);
    // Saved at once: the account form has nothing to send for it.
    expect(sent.some(({ method }) => method === 'PUT')).toBe(false);
  });

  it('shows a verified address as such, with nothing to mark', () => {
    stubUserApi();
    const dialog = renderDialog({ ...pilot, emailVerified: true });
    expect(dialog.getByTestId('email-verification').textContent).toBe('Verified');
    expect(markButton(dialog)).toBeNull();
  });

  it('shows nothing for a user without an address', () => {
    stubUserApi();
    const dialog = renderDialog({ ...pilot, email: null });
    expect(dialog.queryByTestId('email-verification')).toBeNull();
    expect(markButton(dialog)).toBeNull();
    expect(dialog.getByLabelText('Email').hasAttribute('aria-describedby')).toBe(false);
  });

  it('waits for a changed address to be saved before it can be marked', () => {
    stubUserApi();
    const dialog = renderDialog({ ...pilot, emailVerified: true });
    const email = dialog.getByLabelText('Email');
    fireEvent.change(email, { target: { value: 'new@example.com' } });
    expect(dialog.getByTestId('email-verification').textContent).toBe('Not verified');
    expect(dialog.getByText(ADDRESS_CHANGE_CLEARS_VERIFICATION)).toBeTruthy();
    expect(markButton(dialog)).toBeNull();
    expect(email.getAttribute('aria-describedby')?.split(' ')).toHaveLength(2);

    // The same address in other case is still the saved one.
    fireEvent.change(email, { target: { value: ' PILOT@example.com ' } });
    expect(dialog.getByTestId('email-verification').textContent).toBe('Verified');
  });

  it("shows the server's refusal in an error toast and keeps the button", async () => {
    stubUserApi(() =>
      jsonResponse(409, {
        message: 'This user has no e-mail address: add one first',
        code: 'CONFLICT',
      }),
    );
    const dialog = renderDialog();
    fireEvent.click(markButton(dialog)!);
    expect(await findToast('This user has no e-mail address: add one first')).toBeTruthy();
    expect(markButton(dialog)).toBeTruthy();
    expect(dialog.getByTestId('email-verification').textContent).toBe('Not verified');
  });
});
