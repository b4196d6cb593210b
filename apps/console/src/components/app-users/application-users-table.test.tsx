import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable } from '@/components/ui/data-table.tsx';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { createAppUserRow } from '@/test/stub-owner-api.ts';
import { applicationUsersTable } from './application-users-table.tsx';

const noop = () => {};

const team = createAppUserRow(1, {
  username: 'team',
  hwid: 'HWID-TEAM-LAPTOP-0001',
  deviceCount: 2,
  deviceLimit: 3,
});
const solo = createAppUserRow(2, {
  username: 'solo',
  hwid: 'HWID-SOLO-DESKTOP-0002',
  deviceCount: 1,
  deviceLimit: 1,
});
const fresh = createAppUserRow(3, { username: 'fresh', deviceLimit: 1 });

function renderTable(isHwidLockEnabled: boolean) {
  renderWithProviders(
    <DataTable
      table={applicationUsersTable({
        isHwidLockEnabled,
        busyUserId: null,
        onEdit: noop,
        onTogglePause: noop,
        onResetHwid: noop,
        onDelete: noop,
      })}
      rows={[team, solo, fresh]}
    />,
  );
}

/** A row's HWID cell, by the table's HWID column. */
function hwidCell(username: string): HTMLElement {
  const column = screen
    .getAllByRole('columnheader')
    .findIndex((header) => header.textContent === 'HWID');
  return within(screen.getByTestId(`user-row-${username}`)).getAllByRole('cell')[column]!;
}

describe('the management page HWID column with devices', () => {
  it('counts the devices of a user who may bind several, instead of one HWID', () => {
    renderTable(true);
    expect(hwidCell('team').textContent).toBe('2 of 3 devices');
    expect(within(hwidCell('team')).queryByRole('button', { name: 'Copy HWID' })).toBeNull();
  });

  it("keeps the spec's cell at a limit of 1: the first 8 characters and a copy button, or the hint", () => {
    renderTable(true);
    const soloCell = within(hwidCell('solo'));
    expect(soloCell.getByText('HWID-SOL...').getAttribute('title')).toBe(solo.hwid);
    expect(soloCell.getByRole('button', { name: 'Copy HWID' })).toBeTruthy();
    expect(hwidCell('fresh').textContent).toBe('Will be set on first login');
  });

  it('keeps the spec cell for everyone while HWID lock is off', () => {
    renderTable(false);
    expect(hwidCell('team').textContent).toBe('HWID-TEA...');
    expect(hwidCell('fresh').textContent).toBe('Not required');
  });
});

describe('the management page Email column', () => {
  const unconfirmed = createAppUserRow(4, { username: 'unconfirmed', email: 'u@example.com' });
  const confirmed = createAppUserRow(5, {
    username: 'confirmed',
    email: 'c@example.com',
    emailVerified: true,
  });

  function emailCell(username: string): HTMLElement {
    const column = screen
      .getAllByRole('columnheader')
      .findIndex((header) => header.textContent === 'Email');
    return within(screen.getByTestId(`user-row-${username}`)).getAllByRole('cell')[column]!;
  }

  function renderEmails(isVerifiedEmailRequired: boolean) {
    renderWithProviders(
      <DataTable
        table={applicationUsersTable({
          isHwidLockEnabled: false,
          isVerifiedEmailRequired,
          busyUserId: null,
          onEdit: noop,
          onTogglePause: noop,
          onDelete: noop,
        })}
        rows={[unconfirmed, confirmed, fresh]}
      />,
    );
  }

  it('marks an unconfirmed address when the application requires confirmed ones', () => {
    renderEmails(true);
    expect(emailCell('unconfirmed').textContent).toBe('Not verified: u@example.com');
    expect(emailCell('confirmed').textContent).toBe('c@example.com');
    expect(emailCell('fresh').textContent).toBe('Not provided');
  });

  it('marks nothing when it does not', () => {
    renderEmails(false);
    expect(emailCell('unconfirmed').textContent).toBe('u@example.com');
  });
});
