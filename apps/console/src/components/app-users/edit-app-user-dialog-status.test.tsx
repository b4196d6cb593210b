import type { AppUser } from '@latchkey/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
import { APP_USER_STATUS_HINT } from './app-user-status-field.tsx';
import {
  APPLIED_AT_ONCE_HEADING,
  APPLIED_AT_ONCE_NOTE,
  EditAppUserDialog,
} from './edit-app-user-dialog.tsx';

const orbit = createApplication({ id: 7 });
const pilot = createAppUserRow(1);
const USER_PATH = `/api/applications/7/users/${pilot.id}`;

/** The user's lists (empty), and the edit answering with the user as changed. */
function stubUserApi() {
  const sent = stubOwnerApi(({ method, path, body }) => {
    if (/\/(devices|subscriptions|variables)$/.test(path)) return jsonResponse(200, []);
    if (path === '/api/applications/7/plans') return jsonResponse(200, []);
    if (path === USER_PATH && method === 'PUT') {
      return jsonResponse(200, { ...pilot, ...(body as Partial<AppUser>) });
    }
    return undefined;
  });
  return { putBodies: () => sent.filter(({ method }) => method === 'PUT').map(({ body }) => body) };
}

function renderDialog(user: AppUser = pilot) {
  renderWithProviders(
    <EditAppUserDialog application={orbit} user={user} open onOpenChange={() => {}} />,
    { auth: signedInAuth(), toaster: true },
  );
  return within(screen.getByRole('dialog', { name: 'Edit User' }));
}

const statusGroup = (dialog: ReturnType<typeof within>) =>
  within(dialog.getByRole('group', { name: 'Status' }));

const checkedStatus = (dialog: ReturnType<typeof within>) =>
  statusGroup(dialog)
    .getAllByRole('radio')
    .filter((radio) => (radio as HTMLInputElement).checked)
    .map((radio) => (radio as HTMLInputElement).value);

describe('EditAppUserDialog: one status', () => {
  resetEachTest(stubResizeObserver);

  it('shows the state as one badge and one choice, and saves Paused as the server flags', async () => {
    const api = stubUserApi();
    const dialog = renderDialog();
    expect(dialog.getByTestId('edit-user-status').textContent).toBe('Current status: Active');
    expect(dialog.queryByRole('checkbox')).toBeNull();
    expect(checkedStatus(dialog)).toEqual(['Active']);
    expect(
      statusGroup(dialog)
        .getAllByRole('radio')
        .map((radio) => (radio as HTMLInputElement).value),
    ).toEqual(['Active', 'Paused', 'Disabled']);
    expect(dialog.getByRole('group', { name: 'Status' }).getAttribute('aria-describedby')).toBe(
      dialog.getByText(APP_USER_STATUS_HINT).id,
    );

    // The arrow keys of the browser's radio group are walked in the browser test.
    fireEvent.click(statusGroup(dialog).getByRole('radio', { name: 'Paused' }));
    expect(checkedStatus(dialog)).toEqual(['Paused']);

    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('User updated successfully')).toBeTruthy();
    expect(api.putBodies()).toEqual([expect.objectContaining({ isActive: true, isPaused: true })]);
  });

  it('shows an expired user as Expired, with the state set by hand still to choose', () => {
    stubUserApi();
    const dialog = renderDialog({
      ...pilot,
      expiresAt: '2000-01-01T00:00:00.000Z',
      isPaused: true,
    });
    expect(dialog.getByTestId('edit-user-status').textContent).toBe('Current status: Expired');
    expect(checkedStatus(dialog)).toEqual(['Paused']);
    expect(dialog.getByText(APP_USER_STATUS_HINT).textContent).toMatch(/extending the expiry/);
  });

  it('reads a disabled user as Disabled, paused or not, and enables them again', async () => {
    const api = stubUserApi();
    const dialog = renderDialog({ ...pilot, isActive: false, isPaused: true });
    expect(dialog.getByTestId('edit-user-status').textContent).toBe('Current status: Disabled');
    expect(checkedStatus(dialog)).toEqual(['Disabled']);

    fireEvent.click(statusGroup(dialog).getByRole('radio', { name: 'Active' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('User updated successfully')).toBeTruthy();
    expect(api.putBodies()).toEqual([expect.objectContaining({ isActive: true, isPaused: false })]);
  });

  it('sets the sections that apply at once apart from the form that Save Changes sends', async () => {
    stubUserApi();
    const dialog = renderDialog();
    const appliedAtOnce = dialog.getByRole('region', { name: APPLIED_AT_ONCE_HEADING });
    expect(within(appliedAtOnce).getByText(APPLIED_AT_ONCE_NOTE)).toBeTruthy();
    for (const title of ['Devices', 'Subscriptions', 'Variables']) {
      expect(within(appliedAtOnce).getByRole('region', { name: title })).toBeTruthy();
    }
    const form = dialog.getByRole('button', { name: 'Save Changes' }).closest('form')!;
    expect(form.contains(appliedAtOnce)).toBe(false);
    expect(within(form).getByLabelText('Username')).toBeTruthy();
    // The form comes first: Save Changes is read before the sections it does not send.
    expect(form.compareDocumentPosition(appliedAtOnce) & Node.DOCUMENT_POSITION_FOLLOWING).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    expect(await within(appliedAtOnce).findByText('No devices yet')).toBeTruthy();
  });
});
