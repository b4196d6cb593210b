import type { AppUserListRow } from '@latchkey/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { createAppUserRow } from '@/test/stub-owner-api.ts';
import { applicationUsersTable } from './application-users-table.tsx';
import { dashboardUsersTable } from './dashboard-users-table.tsx';

const NOW = new Date('2030-06-01T12:00:00.000Z');

/** One user in each state, named after it. */
const users = [
  createAppUserRow(1, { username: 'active' }),
  createAppUserRow(2, { username: 'paused', isPaused: true }),
  createAppUserRow(3, { username: 'disabled', isActive: false, isPaused: true }),
  createAppUserRow(4, { username: 'expired', isPaused: true, expiresAt: '2030-05-01T00:00:00Z' }),
];

const noop = () => {};
const handlers = {
  isHwidLockEnabled: false,
  busyUserId: null,
  now: NOW,
  onEdit: noop,
  onTogglePause: noop,
  onDelete: noop,
};

/** The badges of a row's Status cell, by the table's Status column. */
function statusBadges(row: HTMLElement): string[] {
  const statusColumn = screen
    .getAllByRole('columnheader')
    .findIndex((header) => header.textContent === 'Status');
  const cell = within(row).getAllByRole('cell')[statusColumn]!;
  return Array.from(cell.querySelectorAll('span'), (badge) => badge.textContent);
}

describe('both users tables read one state the same way', () => {
  it.each([
    ['dashboard', dashboardUsersTable(handlers)],
    ['management page', applicationUsersTable({ ...handlers, onResetHwid: noop })],
  ] satisfies [string, DataTableDefinition<AppUserListRow>][])(
    'the %s shows one badge per user: Active, Paused, Disabled or Expired',
    (_name, table) => {
      renderWithProviders(<DataTable table={table} rows={users} />);
      expect(
        users.map(({ username }) => statusBadges(screen.getByTestId(`user-row-${username}`))),
      ).toEqual([['Active'], ['Paused'], ['Disabled'], ['Expired']]);
      // The Expires column stays red for a past date.
      expect(
        screen.getByTestId('user-row-expired').querySelector('td[data-expired]')?.textContent,
      ).toMatch(/2030/);
    },
  );
});
