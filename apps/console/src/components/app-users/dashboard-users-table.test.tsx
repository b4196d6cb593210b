import type { AppUserListRow } from '@latchkey/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DataTable } from '@/components/ui/data-table.tsx';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { dashboardUsersTable } from './dashboard-users-table.tsx';
import { createAppUserRow } from '@/test/stub-owner-api.ts';

function createUser(overrides: Partial<AppUserListRow>): AppUserListRow {
  return createAppUserRow(1, {
    applicationId: 1,
    username: 'alice',
    email: 'alice@example.com',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  });
}

const users = [
  createUser({ username: 'locked', hwid: 'PC-1', loginAttempts: 2 }),
  createUser({
    id: '00000000-0000-4000-8000-000000000002',
    username: 'blocked',
    isPaused: true,
    expiresAt: '2000-01-01T00:00:00.000Z',
    loginAttempts: 9,
  }),
];

function renderTable(isHwidLockEnabled: boolean) {
  const handlers = { onEdit: vi.fn(), onTogglePause: vi.fn(), onDelete: vi.fn() };
  renderWithProviders(
    <DataTable
      table={dashboardUsersTable({ isHwidLockEnabled, busyUserId: null, ...handlers })}
      rows={users}
    />,
  );
  return handlers;
}

describe('DashboardUsersTable', () => {
  it('applies the HWID, status and login-attempt rules per row', () => {
    renderTable(true);
    const locked = screen.getByTestId('user-row-locked');
    const blocked = screen.getByTestId('user-row-blocked');

    expect(within(locked).getByText('Locked')).toBeTruthy();
    expect(within(blocked).getByText('Not Set')).toBeTruthy();
    expect(within(blocked).getByText('Expired')).toBeTruthy();
    expect(within(locked).getByText('Active')).toBeTruthy();

    const fewAttempts = within(locked).getByTestId('login-attempts');
    expect(within(fewAttempts).getByRole('img', { name: 'Failed login attempts' })).toBeTruthy();
    expect(fewAttempts.className).not.toContain('text-destructive');
    expect(within(blocked).getByTestId('login-attempts').className).toContain('text-destructive');
    expect(within(locked).getAllByText('Never')).toHaveLength(2);
  });

  it('counts the devices of a user who may bind several, and keeps the labels at a limit of 1', () => {
    renderWithProviders(
      <DataTable
        table={dashboardUsersTable({
          isHwidLockEnabled: true,
          busyUserId: null,
          onEdit: vi.fn(),
          onTogglePause: vi.fn(),
          onDelete: vi.fn(),
        })}
        rows={[
          createUser({ username: 'team', hwid: 'PC-1', deviceCount: 2, deviceLimit: 3 }),
          createUser({
            id: '00000000-0000-4000-8000-000000000003',
            username: 'solo',
            hwid: 'PC-9',
            deviceCount: 1,
            deviceLimit: 1,
          }),
        ]}
      />,
    );
    const team = screen.getByTestId('user-row-team');
    expect(within(team).getByText('2 of 3 devices')).toBeTruthy();
    expect(within(team).queryByText('Locked')).toBeNull();
    expect(within(screen.getByTestId('user-row-solo')).getByText('Locked')).toBeTruthy();
  });

  it('says Disabled for every user when the application does not lock', () => {
    renderTable(false);
    expect(screen.getAllByText('Disabled')).toHaveLength(2);
  });

  it('offers Unpause to a paused user and Pause to the others', () => {
    const handlers = renderTable(true);
    fireEvent.click(
      within(screen.getByTestId('user-row-blocked')).getByRole('button', { name: 'Unpause user' }),
    );
    expect(handlers.onTogglePause).toHaveBeenCalledWith(users[1]);
    expect(
      within(screen.getByTestId('user-row-locked')).getByRole('button', { name: 'Pause user' }),
    ).toBeTruthy();
  });
});
