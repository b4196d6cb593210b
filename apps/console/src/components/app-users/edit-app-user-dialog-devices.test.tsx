import type { AppUser, Device } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast } from '@/hooks/use-toast.ts';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import {
  createApplication,
  createAppUserRow,
  createDevice,
  jsonResponse,
  stubOwnerApi,
} from '@/test/stub-owner-api.ts';
import { getDeviceLabel } from './device-display.ts';
import { EditAppUserDialog } from './edit-app-user-dialog.tsx';

const orbit = createApplication({ id: 7, hwidLockEnabled: true, maxDevices: 2 });
const first = createDevice(1);
const second = createDevice(2);
const pilot = createAppUserRow(1, { hwid: first.hwid, deviceCount: 2, deviceLimit: 3 });
const USER_PATH = `/api/applications/7/users/${pilot.id}`;

/** The user's routes: their devices (in memory), subscriptions, the plans, and the edit. */
function stubUserApi(initial: Device[]) {
  let devices = [...initial];
  const sent = stubOwnerApi(({ method, path, body }) => {
    if (path === `${USER_PATH}/devices` && method === 'GET') return jsonResponse(200, devices);
    const one = devices.find(({ id }) => path === `${USER_PATH}/devices/${id}`);
    if (one && method === 'DELETE') {
      devices = devices.filter(({ id }) => id !== one.id);
      return jsonResponse(200, { released: 1 });
    }
    if (path === `${USER_PATH}/subscriptions`) return jsonResponse(200, []);
    if (path === '/api/applications/7/plans') return jsonResponse(200, []);
    if (path === USER_PATH && method === 'PUT') {
      return jsonResponse(200, { ...pilot, ...(body as Partial<AppUser>) });
    }
    return undefined;
  });
  return { sentBodies: (method: string) => sent.filter((request) => request.method === method) };
}

function renderDialog(user: AppUser = pilot) {
  return renderWithProviders(
    <EditAppUserDialog application={orbit} user={user} open onOpenChange={() => {}} />,
    { auth: signedInAuth(), toaster: true },
  );
}

async function removeFirstDevice() {
  fireEvent.click(
    within(await screen.findByTestId(`device-${first.id}`)).getByRole('button', {
      name: `Remove ${getDeviceLabel(first)}`,
    }),
  );
  fireEvent.click(
    within(await screen.findByRole('alertdialog', { name: 'Remove device?' })).getByRole('button', {
      name: 'Remove Device',
    }),
  );
  expect(await findToast('Device removed successfully')).toBeTruthy();
}

describe('EditAppUserDialog: devices', () => {
  beforeEach(() => {
    dismissToast();
    stubResizeObserver();
  });
  afterEach(() => vi.unstubAllGlobals());

  it("counts the user's devices against their own limit, else the application's", async () => {
    stubUserApi([first, second]);
    const { unmount } = renderDialog();
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit User' }));
    expect((await dialog.findByTestId('device-seats')).textContent).toBe('2 of 3 devices');
    unmount();

    // A user without a list row's limit: the application's limit applies.
    const { deviceLimit: _deviceLimit, ...plainUser } = pilot;
    renderDialog(plainUser);
    expect((await screen.findByTestId('device-seats')).textContent).toBe('2 of 2 devices');
  });

  it('has no Hardware ID field: a removal stands, and Save Changes sends no HWID', async () => {
    const api = stubUserApi([first, second]);
    renderDialog();
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit User' }));
    expect(dialog.queryByRole('textbox', { name: /Hardware ID|HWID/ })).toBeNull();
    expect(dialog.getAllByRole('textbox').length).toBeGreaterThan(0);

    await removeFirstDevice();
    await waitFor(() => expect(screen.queryByTestId(`device-${first.id}`)).toBeNull());
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('User updated successfully')).toBeTruthy();
    const [saved] = api.sentBodies('PUT').map(({ body }) => body);
    expect(saved).toMatchObject({ username: pilot.username, isActive: true, isPaused: false });
    expect(saved).not.toHaveProperty('hwid');
  });
});
