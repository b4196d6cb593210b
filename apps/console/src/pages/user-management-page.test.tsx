import type { AdminUser, AuditEntry, SiteOverviewRow, UserPermissions } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SITE_ADMIN_QUERY_KEY } from '@/hooks/use-site-admin.ts';
import { dismissToast } from '@/hooks/use-toast.ts';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver, stubScrollIntoView } from '@/test/jsdom-stubs.ts';
import {
  createCurrentUser,
  renderWithProviders,
  signedInAuth,
} from '@/test/render-with-providers.tsx';
import { jsonResponse, pagedResponse, stubRefusingOwnerApi } from '@/test/stub-owner-api.ts';
import { NO_USER_MANAGEMENT_PERMISSION, UserManagementPage } from './user-management-page.tsx';

const OWNER_ID = '00000000-0000-4000-8000-000000000001';
const ADMIN_ID = '00000000-0000-4000-8000-000000000002';
const VENDOR_ID = '00000000-0000-4000-8000-000000000003';

const account = (overrides: Partial<AdminUser>): AdminUser => ({
  id: VENDOR_ID,
  email: 'vendor@example.com',
  firstName: null,
  lastName: null,
  role: 'user',
  permissions: ['manage_applications', 'delete_applications'],
  isActive: true,
  createdAt: '2025-03-14T12:00:00.000Z',
  lastSignInAt: null,
  ...overrides,
});

const ACCOUNTS: AdminUser[] = [
  account({
    id: OWNER_ID,
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    role: 'owner',
    permissions: [],
  }),
  account({
    id: ADMIN_ID,
    email: 'grace@example.com',
    firstName: 'Grace',
    lastName: 'Hopper',
    role: 'admin',
    permissions: ['manage_users'],
  }),
  account({}),
];

const overviewRow: SiteOverviewRow = {
  accountId: VENDOR_ID,
  email: 'vendor@example.com',
  firstName: null,
  lastName: null,
  role: 'user',
  isActive: true,
  applicationCount: 2,
  endUserCount: 1234,
  apiRequestCount: 56789,
  lastActivityAt: null,
};

const auditEntry: AuditEntry = {
  id: '00000000-0000-4000-8000-0000000000a1',
  actor: { id: OWNER_ID, email: 'ada@example.com' },
  action: 'user_updated',
  target: { id: VENDOR_ID, email: 'vendor@example.com' },
  before: { role: 'user', permissions: ['manage_applications'], isActive: true },
  after: { role: 'moderator', permissions: ['manage_users'], isActive: false },
  createdAt: '2025-03-14T12:00:00.000Z',
};

/** An owner's own write through a management API token, as the audit trail records it. */
const ownerWriteEntry: AuditEntry = {
  id: '00000000-0000-4000-8000-0000000000a2',
  actor: { id: VENDOR_ID, email: 'vendor@example.com' },
  action: 'end_user_paused',
  target: { id: VENDOR_ID, email: 'vendor@example.com' },
  before: null,
  after: null,
  ownerWrite: {
    application: { id: 7, name: 'Acme Desktop' },
    target: { kind: 'end_user', id: '00000000-0000-4000-8000-0000000000c1', label: 'pat' },
    change: { isPaused: true },
  },
  actorToken: { id: '00000000-0000-4000-8000-0000000000e1', name: 'Shop', prefix: 'lk_abcd1234' },
  ipAddress: '203.0.113.9',
  createdAt: '2025-03-15T12:00:00.000Z',
};

/**
 * A stand-in for the admin API of packages/contracts/src/admin.ts with its accounts in memory,
 * searched and paged as the server does. `failNext` answers the next `METHOD /path` with an error.
 */
function stubAdminApi(accounts: AdminUser[] = ACCOUNTS) {
  const state = { accounts: [...accounts] };
  const paged = (rows: unknown[], url: URL) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    return pagedResponse(rows.slice((page - 1) * 50, page * 50), {
      page,
      pageSize: 50,
      total: rows.length,
    });
  };

  const { sent, refuseNext } = stubRefusingOwnerApi(({ method, url, body }) => {
    const path = url.pathname;
    if (path === '/api/admin/users') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      return paged(
        state.accounts.filter((candidate) =>
          [candidate.email, candidate.firstName, candidate.lastName].some((field) =>
            field?.toLowerCase().includes(search),
          ),
        ),
        url,
      );
    }
    if (path === '/api/admin/overview') return paged([overviewRow], url);
    if (path === '/api/admin/audit') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      return paged(
        [ownerWriteEntry, auditEntry].filter((entry) =>
          [entry.actor.email, entry.target.email].some((email) => email.includes(search)),
        ),
        url,
      );
    }
    const one = /^\/api\/admin\/users\/([\w-]+)$/.exec(path);
    if (one) {
      const existing = state.accounts.find((candidate) => candidate.id === one[1]);
      if (!existing) return jsonResponse(404, { message: 'User not found', code: 'NOT_FOUND' });
      if (method === 'DELETE') {
        state.accounts = state.accounts.filter((candidate) => candidate.id !== existing.id);
        return jsonResponse(200, {
          success: true,
          message: 'User has been removed from the system.',
        });
      }
      if (method === 'PATCH') {
        const updated = { ...existing, ...(body as Partial<AdminUser>) };
        state.accounts = state.accounts.map((candidate) =>
          candidate.id === existing.id ? updated : candidate,
        );
        return jsonResponse(200, updated);
      }
    }
    return jsonResponse(404, { message: 'Not found', code: 'NOT_FOUND' });
  });

  return {
    sent: (method: string, path: string) =>
      sent.filter((request) => request.method === method && request.path === path),
    sentTo: (prefix: string) => sent.filter((request) => request.path.startsWith(prefix)),
    failNext: (method: string, path: string, status: number, body: unknown) =>
      refuseNext(method, path, jsonResponse(status, body)),
  };
}

function renderPage(userPermissions: UserPermissions = { role: 'owner', permissions: [] }) {
  const id = userPermissions.role === 'owner' ? OWNER_ID : ADMIN_ID;
  return renderWithProviders(<UserManagementPage />, {
    path: '/user-management',
    auth: signedInAuth(createCurrentUser({ id, userPermissions })),
    toaster: true,
  });
}

const card = (id: string) => within(screen.getByTestId(`site-account-${id}`));

/**
 * Renders the page and searches the accounts for HOPPER once the list has shown the vendor,
 * waiting until the vendor is gone from it.
 */
async function renderAndSearchAccountsForHopper() {
  const api = stubAdminApi();
  renderPage();
  const search = await screen.findByPlaceholderText('Search by email or name...');
  await screen.findByTestId(`site-account-${VENDOR_ID}`);
  fireEvent.change(search, { target: { value: 'HOPPER' } });
  await waitFor(() => expect(screen.queryByTestId(`site-account-${VENDOR_ID}`)).toBeNull());
  return { api, search };
}

describe('UserManagementPage', { timeout: 30_000 }, () => {
  // Radix measures checkboxes and selects; jsdom has none of it and sizes are not tested.
  beforeEach(() => {
    stubScrollIntoView();
    stubResizeObserver();
    dismissToast();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the no-permission text to a user without admin permissions, and asks nothing', async () => {
    const api = stubAdminApi();
    const { queryClient } = renderPage({
      role: 'user',
      permissions: ['manage_applications', 'edit_code'],
    });
    expect(screen.getByRole('alert').textContent).toBe(NO_USER_MANAGEMENT_PERMISSION);
    expect(screen.queryByRole('tab')).toBeNull();
    // No admin query was ever created, so none can be sent later either (a fixed wait for a
    // request that does not come proves nothing about one that would come later).
    expect(queryClient.getQueryCache().findAll({ queryKey: SITE_ADMIN_QUERY_KEY })).toEqual([]);
    expect(api.sentTo('/api/admin')).toEqual([]);
  });

  it('lists the accounts: name or email, You, the crown, role, status and permission count', async () => {
    stubAdminApi([
      ...ACCOUNTS,
      account({
        id: 'f'.repeat(8) + '-0000-4000-8000-000000000009',
        email: 'off@example.com',
        isActive: false,
        permissions: ['edit_code'],
      }),
    ]);
    renderPage();

    await screen.findByTestId(`site-account-${OWNER_ID}`);
    const owner = card(OWNER_ID);
    expect(owner.getByText('Ada Lovelace')).toBeTruthy();
    expect(owner.getByText('ada@example.com')).toBeTruthy();
    expect(owner.getByText('You')).toBeTruthy();
    expect(owner.getByRole('img', { name: 'Site owner' })).toBeTruthy();
    expect(owner.getByText('Owner')).toBeTruthy();
    expect(owner.getByText('8 permissions')).toBeTruthy();
    // Nobody deletes an owner or themselves.
    expect(owner.queryByRole('button', { name: /Delete/ })).toBeNull();

    const vendor = card(VENDOR_ID);
    expect(vendor.getAllByText('vendor@example.com')).toHaveLength(2);
    expect(vendor.queryByText('You')).toBeNull();
    expect(vendor.queryByRole('img', { name: 'Site owner' })).toBeNull();
    expect(vendor.getByText('User')).toBeTruthy();
    expect(vendor.getByText('Active')).toBeTruthy();
    expect(vendor.getByText('2 permissions')).toBeTruthy();
    expect(vendor.getByRole('button', { name: 'Delete vendor@example.com' })).toBeTruthy();

    const inactive = within(screen.getByRole('listitem', { name: 'off@example.com' }));
    expect(inactive.getByText('Inactive')).toBeTruthy();
    expect(inactive.getByText('1 permission')).toBeTruthy();
  });

  it("searches on the server and says 'No users found matching your search.'", async () => {
    const { api, search } = await renderAndSearchAccountsForHopper();
    expect(screen.getByTestId(`site-account-${ADMIN_ID}`)).toBeTruthy();
    expect(api.sent('GET', '/api/admin/users?search=HOPPER')).toHaveLength(1);

    fireEvent.change(search, { target: { value: 'nobody' } });
    expect(await screen.findByText('No users found matching your search.')).toBeTruthy();
  });

  it("says 'Failed to load users. Please try again later.' when the list fails", async () => {
    const api = stubAdminApi();
    api.failNext('GET', '/api/admin/users', 500, { message: 'boom', code: 'INTERNAL' });
    renderPage();
    expect(await screen.findByText('Failed to load users. Please try again later.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId(`site-account-${VENDOR_ID}`)).toBeTruthy();
  });

  it('disables Edit on an owner for a non-owner administrator', async () => {
    stubAdminApi();
    renderPage({ role: 'admin', permissions: ['manage_users'] });
    await screen.findByTestId(`site-account-${OWNER_ID}`);
    expect(
      (card(OWNER_ID).getByRole('button', { name: 'Edit Ada Lovelace' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    expect(
      (
        card(VENDOR_ID).getByRole('button', {
          name: 'Edit vendor@example.com',
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(false);
    expect(card(ADMIN_ID).getByText('You')).toBeTruthy();
    expect(card(ADMIN_ID).queryByRole('button', { name: /Delete/ })).toBeNull();
  });

  it('saves role, permissions and the active flag together, then closes and toasts', async () => {
    const api = stubAdminApi();
    renderPage();
    await screen.findByTestId(`site-account-${VENDOR_ID}`);
    fireEvent.click(card(VENDOR_ID).getByRole('button', { name: 'Edit vendor@example.com' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit vendor@example.com' }));

    expect(dialog.getByRole('combobox', { name: 'Role' }).textContent).toContain('User');
    expect(dialog.getByText('Modify user roles and permissions')).toBeTruthy();
    const activeBox = dialog.getByRole('checkbox', { name: 'Active User' });
    expect(activeBox.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(activeBox);
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Manage Users' }));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Delete Applications' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));

    expect(
      await findToast('User permissions and role have been updated successfully.'),
    ).toBeTruthy();
    expect(screen.getByText('User Updated')).toBeTruthy();
    expect(api.sent('PATCH', `/api/admin/users/${VENDOR_ID}`)[0]!.body).toEqual({
      role: 'user',
      permissions: ['manage_users', 'manage_applications'],
      isActive: false,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await card(VENDOR_ID).findByText('Inactive')).toBeTruthy();
  });

  it("shows the server's refusal as the Update Failed toast and keeps the dialog open", async () => {
    const api = stubAdminApi();
    api.failNext('PATCH', `/api/admin/users/${VENDOR_ID}`, 403, {
      message: 'You cannot grant a permission you do not hold.',
      code: 'FORBIDDEN',
    });
    renderPage();
    await screen.findByTestId(`site-account-${VENDOR_ID}`);
    fireEvent.click(card(VENDOR_ID).getByRole('button', { name: 'Edit vendor@example.com' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('You cannot grant a permission you do not hold.')).toBeTruthy();
    expect(screen.getByText('Update Failed')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('keeps what a non-owner may not grant out of reach in the Edit dialog', async () => {
    stubAdminApi();
    renderPage({ role: 'admin', permissions: ['manage_users', 'manage_permissions'] });
    await screen.findByTestId(`site-account-${VENDOR_ID}`);
    fireEvent.click(card(VENDOR_ID).getByRole('button', { name: 'Edit vendor@example.com' }));
    const dialog = within(await screen.findByRole('dialog'));
    const isDisabled = (name: string) =>
      (dialog.getByRole('checkbox', { name }) as HTMLButtonElement).disabled;
    expect(isDisabled('Manage Users')).toBe(false);
    expect(isDisabled('Edit Code')).toBe(true);
    expect(isDisabled('View All Data')).toBe(true);
  });

  it('ticks Manage API Tokens when the role becomes Admin, and saves it', async () => {
    const api = stubAdminApi();
    renderPage();
    await screen.findByTestId(`site-account-${VENDOR_ID}`);
    fireEvent.click(card(VENDOR_ID).getByRole('button', { name: 'Edit vendor@example.com' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit vendor@example.com' }));
    const tokens = dialog.getByRole('checkbox', { name: 'Manage API Tokens' });
    expect(dialog.getByText('Create and revoke tokens of the management API')).toBeTruthy();
    expect(tokens.getAttribute('aria-checked')).toBe('false');

    fireEvent.click(dialog.getByRole('combobox', { name: 'Role' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Admin' }));
    await waitFor(() => expect(tokens.getAttribute('aria-checked')).toBe('true'));
    // The other permissions are kept as they were.
    expect(
      dialog.getByRole('checkbox', { name: 'Manage Applications' }).getAttribute('aria-checked'),
    ).toBe('true');

    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(
      await findToast('User permissions and role have been updated successfully.'),
    ).toBeTruthy();
    expect(api.sent('PATCH', `/api/admin/users/${VENDOR_ID}`)[0]!.body).toEqual({
      role: 'admin',
      permissions: ['manage_applications', 'delete_applications', 'manage_api_tokens'],
      isActive: true,
    });
  });

  it('leaves Manage API Tokens unticked on Admin when the actor does not hold it', async () => {
    stubAdminApi();
    renderPage({ role: 'admin', permissions: ['manage_users', 'manage_permissions'] });
    await screen.findByTestId(`site-account-${VENDOR_ID}`);
    fireEvent.click(card(VENDOR_ID).getByRole('button', { name: 'Edit vendor@example.com' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('combobox', { name: 'Role' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Admin' }));
    await waitFor(() =>
      expect(dialog.getByRole('combobox', { name: 'Role' }).textContent).toContain('Admin'),
    );
    const tokens = dialog.getByRole('checkbox', { name: 'Manage API Tokens' });
    expect(tokens.getAttribute('aria-checked')).toBe('false');
    expect((tokens as HTMLButtonElement).disabled).toBe(true);
  });

  it('deletes after a confirmation that names the account, or shows Delete Failed', async () => {
    const api = stubAdminApi();
    renderPage();
    await screen.findByTestId(`site-account-${VENDOR_ID}`);

    api.failNext('DELETE', `/api/admin/users/${VENDOR_ID}`, 403, {
      message: 'The site owner cannot be deleted.',
      code: 'FORBIDDEN',
    });
    fireEvent.click(card(VENDOR_ID).getByRole('button', { name: 'Delete vendor@example.com' }));
    let confirm = within(await screen.findByRole('alertdialog'));
    expect(confirm.getByText('Delete vendor@example.com?')).toBeTruthy();
    expect(confirm.getByText('vendor@example.com', { selector: 'strong' })).toBeTruthy();
    fireEvent.click(confirm.getByRole('button', { name: 'Delete User' }));
    expect(await findToast('The site owner cannot be deleted.')).toBeTruthy();
    expect(screen.getByText('Delete Failed')).toBeTruthy();

    fireEvent.click(card(VENDOR_ID).getByRole('button', { name: 'Delete vendor@example.com' }));
    confirm = within(await screen.findByRole('alertdialog'));
    fireEvent.click(confirm.getByRole('button', { name: 'Delete User' }));
    expect(await findToast('User has been removed from the system.')).toBeTruthy();
    expect(screen.getByText('User Deleted')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId(`site-account-${VENDOR_ID}`)).toBeNull());
    expect(api.sent('DELETE', `/api/admin/users/${VENDOR_ID}`)).toHaveLength(2);
  });

  it('shows the overview and audit trail tabs only to those allowed', async () => {
    stubAdminApi();
    renderPage({ role: 'moderator', permissions: ['manage_users'] });
    await screen.findByTestId(`site-account-${VENDOR_ID}`);
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('shows the site overview and the audit trail to the owner', async () => {
    stubAdminApi();
    renderPage();
    // Radix tabs switch on mouse down, as a pointer does.
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Site Overview' }), { button: 0 });
    const row = within(await screen.findByTestId(`overview-row-${VENDOR_ID}`));
    expect(row.getByText('1,234')).toBeTruthy();
    expect(row.getByText('56,789')).toBeTruthy();
    expect(row.getByText('Never')).toBeTruthy();

    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Audit Trail' }), { button: 0 });
    const entry = within(await screen.findByTestId(`audit-row-${auditEntry.id}`));
    expect(entry.getByText('ada@example.com')).toBeTruthy();
    expect(entry.getByText('Updated')).toBeTruthy();
    expect(entry.getByText('vendor@example.com')).toBeTruthy();
    expect(entry.getByText('Role: User → Moderator')).toBeTruthy();
    expect(entry.getByText('Status: Active → Inactive')).toBeTruthy();
    expect(entry.getByText('Granted: Manage Users')).toBeTruthy();
    expect(entry.getByText('Withdrawn: Manage Applications')).toBeTruthy();

    const ownerWrite = within(screen.getByTestId(`audit-row-${ownerWriteEntry.id}`));
    expect(ownerWrite.getByText('End user paused')).toBeTruthy();
    expect(ownerWrite.getByText('End user “pat” in “Acme Desktop”')).toBeTruthy();
    expect(ownerWrite.getByText('By token “Shop” (lk_abcd1234…) from 203.0.113.9')).toBeTruthy();
    expect(ownerWrite.getByText('isPaused: true')).toBeTruthy();
  });

  it('keeps the search across a tab switch, and asks nothing for a tab never opened', async () => {
    const { api } = await renderAndSearchAccountsForHopper();
    expect(api.sentTo('/api/admin/audit')).toEqual([]);

    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Site Overview' }), { button: 0 });
    await screen.findByTestId(`overview-row-${VENDOR_ID}`);
    // Hidden, not gone: role queries see only the panel on show.
    expect(screen.getAllByRole('tabpanel').map((panel) => panel.id)).toEqual([
      screen.getByRole('tabpanel', { name: 'Site Overview' }).id,
    ]);
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Users' }), { button: 0 });

    const users = within(screen.getByRole('tabpanel', { name: 'Users' }));
    const searchAgain = users.getByPlaceholderText<HTMLInputElement>('Search by email or name...');
    expect(searchAgain.value).toBe('HOPPER');
    expect(users.getByTestId(`site-account-${ADMIN_ID}`)).toBeTruthy();
    expect(users.queryByTestId(`site-account-${VENDOR_ID}`)).toBeNull();
    expect(api.sentTo('/api/admin/audit')).toEqual([]);
  });

  it('searches the audit trail by e-mail on the server, and says when nothing matches', async () => {
    const api = stubAdminApi();
    renderPage();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Audit Trail' }), { button: 0 });
    await screen.findByTestId(`audit-row-${ownerWriteEntry.id}`);
    const panel = within(screen.getByRole('tabpanel', { name: 'Audit Trail' }));
    const search = panel.getByPlaceholderText('Search by email...');

    fireEvent.change(search, { target: { value: 'ada@' } });
    await waitFor(() => expect(screen.queryByTestId(`audit-row-${ownerWriteEntry.id}`)).toBeNull());
    expect(screen.getByTestId(`audit-row-${auditEntry.id}`)).toBeTruthy();
    expect(api.sent('GET', '/api/admin/audit?search=ada%40')).toHaveLength(1);

    fireEvent.change(search, { target: { value: 'nobody' } });
    expect(
      await panel.findByText('No entries by or about an account matching your search.'),
    ).toBeTruthy();
  });

  it('shows only the audit trail beside the no-permission text to an access_admin_panel holder', async () => {
    const api = stubAdminApi();
    renderPage({ role: 'user', permissions: ['access_admin_panel'] });
    expect(screen.getByRole('alert').textContent).toBe(NO_USER_MANAGEMENT_PERMISSION);
    expect(screen.queryByRole('tab', { name: 'Site Overview' })).toBeNull();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Audit Trail' }), { button: 0 });
    expect(await screen.findByTestId(`audit-row-${auditEntry.id}`)).toBeTruthy();
    expect(api.sentTo('/api/admin/users')).toEqual([]);
  });
});
