import { DEVICE_NOT_FOUND, type Device } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { appUsersQueryKey } from '@/hooks/owner-query-keys.ts';
import { dismissToast } from '@/hooks/use-toast.ts';
import { findToast } from '@/test/find-toast.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import {
  createDevice,
  jsonResponse,
  neverAnswered,
  pagedResponse,
  recordOwnerApi,
  sectionUser,
  sectionUserPath,
  stubOwnerApi,
} from '@/test/stub-owner-api.ts';
import { UserDevicesSection } from './user-devices-section.tsx';

const BASE = sectionUserPath('devices');

const office = createDevice(1, { name: 'OFFICE-PC', hwid: 'HWID-0001-ABCDEF-OFFICE' });
const unnamed = createDevice(2, {
  name: null,
  lastIp: null,
  hwid: 'HWID-0002-ABCDEF-SPARE1',
  activatedOfflineAt: '2025-03-16T09:00:00.000Z',
});
/** The office PC as its buttons name it: its name and the end of its HWID. */
const OFFICE_LABEL = 'OFFICE-PC · …OFFICE';

/**
 * A stand-in for the owner API's device routes, holding the devices in memory so the list
 * refreshes after each removal. `refuseNext` answers the next request to `METHOD path` with
 * that status and message instead.
 */
function stubDevicesApi(initial: Device[]) {
  let devices = [...initial];
  return recordOwnerApi(
    ({ method, path }) => {
      if (path === '/api/applications/7/users') return pagedResponse([]);
      if (path === BASE && method === 'GET') return jsonResponse(200, devices);
      if (path === BASE && method === 'DELETE') {
        const released = devices.length;
        devices = [];
        return jsonResponse(200, { released });
      }
      const one = devices.find(({ id }) => path === `${BASE}/${id}`);
      if (one && method === 'DELETE') {
        devices = devices.filter(({ id }) => id !== one.id);
        return jsonResponse(200, { released: 1 });
      }
      if (method === 'DELETE')
        return jsonResponse(404, { message: DEVICE_NOT_FOUND, code: 'NOT_FOUND' });
      return undefined;
    },
    { errorCode: 'INTERNAL' },
  );
}

function renderSection({ isHwidLockEnabled = true, deviceLimit = 3 } = {}) {
  return renderSignedIn(
    <UserDevicesSection
      {...sectionUser}
      deviceLimit={deviceLimit}
      isHwidLockEnabled={isHwidLockEnabled}
    />,
  );
}

async function confirmIn(title: string, confirmLabel: string) {
  const dialog = within(await screen.findByRole('alertdialog', { name: title }));
  fireEvent.click(dialog.getByRole('button', { name: confirmLabel }));
}

describe('UserDevicesSection', () => {
  resetEachTest();

  it('shows a skeleton while the devices load', () => {
    stubOwnerApi(() => neverAnswered());
    renderSection();
    expect(screen.getByRole('status', { name: 'Loading devices' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Devices of pilot' })).toBeNull();
    expect(screen.queryByTestId('device-seats')).toBeNull();
  });

  it('says the next login binds a device, or that HWID lock is off', async () => {
    stubDevicesApi([]);
    const { unmount } = renderSection({ isHwidLockEnabled: true, deviceLimit: 1 });
    expect(await screen.findByText('No devices yet')).toBeTruthy();
    expect(screen.getByText(/next login under HWID lock binds the device/)).toBeTruthy();
    expect(screen.getByTestId('device-seats').textContent).toBe('0 of 1 device');
    expect(screen.queryByRole('button', { name: 'Remove all' })).toBeNull();
    unmount();

    renderSection({ isHwidLockEnabled: false });
    expect(await screen.findByText('No devices yet')).toBeTruthy();
    expect(screen.getByText(/devices are bound only when HWID lock is on/)).toBeTruthy();
  });

  it('lists each device: its name or Unnamed device, the HWID preview and copy, when seen, the IP', async () => {
    stubDevicesApi([office, unnamed]);
    renderSection();
    const list = await screen.findByRole('list', { name: 'Devices of pilot' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByTestId('device-seats').textContent).toBe('2 of 3 devices');

    const officeItem = within(screen.getByTestId(`device-${office.id}`));
    expect(officeItem.getByText('OFFICE-PC')).toBeTruthy();
    // The last 6 characters, the whole HWID in the title and for screen readers.
    const preview = officeItem.getByText('…OFFICE');
    expect(preview.closest('code')?.getAttribute('title')).toBe(office.hwid);
    expect(officeItem.getByText(`HWID ${office.hwid}`).className).toContain('sr-only');
    expect(officeItem.getByRole('button', { name: `Copy HWID of ${OFFICE_LABEL}` })).toBeTruthy();
    expect(officeItem.getByText(formatDateTime(office.firstSeenAt))).toBeTruthy();
    expect(officeItem.getByText(formatDateTime(office.lastSeenAt))).toBeTruthy();
    expect(officeItem.getByText('203.0.113.1')).toBeTruthy();

    const unnamedItem = within(screen.getByTestId(`device-${unnamed.id}`));
    expect(unnamedItem.getByText('Unnamed device')).toBeTruthy();
    expect(unnamedItem.getByText('Unknown')).toBeTruthy();
    expect(unnamedItem.getByText('…SPARE1')).toBeTruthy();
    // Licensed through the portal's offline activation: said so, with when; the other is not.
    expect(unnamedItem.getByText('Activated offline')).toBeTruthy();
    expect(unnamedItem.getByText(formatDateTime('2025-03-16T09:00:00.000Z'))).toBeTruthy();
    expect(officeItem.queryByText('Activated offline')).toBeNull();
    // Devices are told apart by the end of their HWID in the names of their buttons.
    expect(
      unnamedItem.getByRole('button', { name: 'Remove Unnamed device · …SPARE1' }),
    ).toBeTruthy();
  });

  it('tells two devices of one name apart by the end of their HWIDs', async () => {
    const home = createDevice(3, { name: 'Office PC', hwid: 'HWID-SHARED-PREFIX-BOB-01' });
    const work = createDevice(4, { name: 'Office PC', hwid: 'HWID-SHARED-PREFIX-BOB-02' });
    stubDevicesApi([home, work]);
    renderSection();

    const homeItem = within(await screen.findByTestId(`device-${home.id}`));
    const workItem = within(screen.getByTestId(`device-${work.id}`));
    expect(homeItem.getByText('…BOB-01')).toBeTruthy();
    expect(workItem.getByText('…BOB-02')).toBeTruthy();
    expect(homeItem.getByRole('button', { name: 'Remove Office PC · …BOB-01' })).toBeTruthy();
    expect(workItem.getByRole('button', { name: 'Remove Office PC · …BOB-02' })).toBeTruthy();
  });

  it('removes one device only after a confirmation, then lists the rest and refreshes the users lists', async () => {
    const api = stubDevicesApi([office, unnamed]);
    const { queryClient } = renderSection();
    const officeItem = within(await screen.findByTestId(`device-${office.id}`));
    // A users list the console holds: the removal changes its HWID and device count.
    queryClient.setQueryData([...appUsersQueryKey(7), { page: 1, search: '' }], { rows: [] });

    fireEvent.click(officeItem.getByRole('button', { name: `Remove ${OFFICE_LABEL}` }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Remove device?' }));
    expect(confirm.getByText(/can log in from another device afterwards/)).toBeTruthy();
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.sent('DELETE')).toEqual([]);

    fireEvent.click(officeItem.getByRole('button', { name: `Remove ${OFFICE_LABEL}` }));
    await confirmIn('Remove device?', 'Remove Device');
    expect(await findToast('Device removed successfully')).toBeTruthy();
    expect(api.sent('DELETE').map(({ path }) => path)).toEqual([`${BASE}/${office.id}`]);
    await waitFor(() => expect(screen.queryByTestId(`device-${office.id}`)).toBeNull());
    expect(screen.getByTestId(`device-${unnamed.id}`)).toBeTruthy();
    expect(screen.getByTestId('device-seats').textContent).toBe('1 of 3 devices');
    expect(
      queryClient.getQueryState([...appUsersQueryKey(7), { page: 1, search: '' }])?.isInvalidated,
    ).toBe(true);
  });

  it('removes all devices after a confirmation, with the keyboard', async () => {
    const api = stubDevicesApi([office, unnamed]);
    renderSection();
    const user = userEvent.setup();
    const removeAll = await screen.findByRole('button', { name: 'Remove all' });
    removeAll.focus();
    await user.keyboard('{Enter}');
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Remove all devices?' }));
    expect(confirm.getByText(/can log in from another device afterwards/)).toBeTruthy();
    // Radix focuses Cancel first: a stray Enter does not release anything.
    const confirmButton = confirm.getByRole('button', { name: 'Remove All Devices' });
    await user.tab();
    expect(document.activeElement).toBe(confirmButton);
    await user.keyboard('{Enter}');

    expect(await findToast('All devices removed successfully')).toBeTruthy();
    expect(api.sent('DELETE').map(({ path }) => path)).toEqual([BASE]);
    expect(await screen.findByText('No devices yet')).toBeTruthy();
  });

  it("shows the server's reason for a failed removal, or the fallback, and re-reads the list", async () => {
    const api = stubDevicesApi([office]);
    renderSection();
    const officeItem = within(await screen.findByTestId(`device-${office.id}`));
    const readsBefore = api.sent('GET', BASE).length;

    api.refuseNext('DELETE', `${BASE}/${office.id}`, 404, DEVICE_NOT_FOUND);
    fireEvent.click(officeItem.getByRole('button', { name: `Remove ${OFFICE_LABEL}` }));
    await confirmIn('Remove device?', 'Remove Device');
    expect(await findToast(DEVICE_NOT_FOUND)).toBeTruthy();
    await waitFor(() => expect(api.sent('GET', BASE).length).toBeGreaterThan(readsBefore));

    dismissToast();
    api.refuseNext('DELETE', BASE, 500);
    fireEvent.click(screen.getByRole('button', { name: 'Remove all' }));
    await confirmIn('Remove all devices?', 'Remove All Devices');
    expect(await findToast('Failed to remove devices')).toBeTruthy();
    expect(screen.getByTestId(`device-${office.id}`)).toBeTruthy();
  });

  it("shows a load failure in the server's words and recovers on Try Again", async () => {
    const api = stubDevicesApi([office]);
    api.refuseNext('GET', BASE, 500, 'Database unavailable');
    renderSection();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Database unavailable');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId(`device-${office.id}`)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
