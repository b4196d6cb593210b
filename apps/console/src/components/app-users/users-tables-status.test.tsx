import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable } from '@/components/ui/data-table.tsx';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { applicationUsersTable } from './application-users-table.tsx';
import { dashboardUsersTable } from './dashboard-users-table.tsx';
import { createAppUserRow } from '@/test/stub-owner-api.ts';

const expiredUser = createAppUserRow(9, {
  applicationId: 1,
  username: 'lapsed',
  email: 'lapsed@example.com',
  expiresAt: '2000-01-01T00:00:00.000Z',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

const noop = () => {};

/** The badges of a row's Status cell, by the table's Status column. */
function statusBadges(row: HTMLElement): string[] {
  const statusColumn = screen
    .getAllByRole('columnheader')
    .findIndex((header) => header.textContent === 'Status');
  const cell = within(row).getAllByRole('cell')[statusColumn]!;
  return Array.from(cell.querySelectorAll('span'), (badge) => badge.textContent);
}

describe('both users tables tell the same truth about an expired user', () => {
  it('the dashboard shows Expired as the status', () => {
    renderWithProviders(
      <DataTable
        table={dashboardUsersTable({
          isHwidLockEnabled: false,
          busyUserId: null,
          onEdit: noop,
          onTogglePause: noop,
          onDelete: noop,
        })}
        rows={[expiredUser]}
      />,
    );
    expect(statusBadges(screen.getByTestId('user-row-lapsed'))).toEqual(['Expired']);
  });

  it('the management page keeps its Active badge and adds an Expired badge', () => {
    renderWithProviders(
      <DataTable
        table={applicationUsersTable({
          isHwidLockEnabled: false,
          busyUserId: null,
          onEdit: noop,
          onTogglePause: noop,
          onResetHwid: noop,
          onDelete: noop,
        })}
        rows={[expiredUser]}
      />,
    );
    const row = screen.getByTestId('user-row-lapsed');
    expect(statusBadges(row)).toEqual(['Expired', 'Active']);
    // The Expires column stays as the spec has it, red for a past date.
    expect(row.querySelector('td[data-expired]')?.textContent).toMatch(/2000/);
  });
});
