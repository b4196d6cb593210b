import type { AppUserListRow, Subscription } from '@latchkey/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable } from '@/components/ui/data-table.tsx';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { applicationUsersTable } from './application-users-table.tsx';
import { createAppUserRow } from '@/test/stub-owner-api.ts';

const subscription = (
  index: number,
  planName: string,
  overrides: Partial<Subscription> = {},
): Subscription => ({
  id: `50000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  planId: `10000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  planName,
  // Midday: the same calendar date in every time zone the tests may run in.
  expiresAt: '2099-03-14T12:00:00.000Z',
  entitlements: [],
  isActive: true,
  updatesUntil: null,
  updatesPendingDays: null,
  ...overrides,
});

const user = (index: number, overrides: Partial<AppUserListRow> = {}) =>
  createAppUserRow(index, overrides);

const holder = user(1, {
  subscriptions: [
    subscription(1, 'Basic', { expiresAt: null, entitlements: ['BASIC'] }),
    subscription(2, 'Pro Monthly', { entitlements: ['EXPORT_PDF', 'PRO'] }),
    subscription(3, 'Trial', {
      expiresAt: '2001-06-15T12:00:00.000Z',
      entitlements: ['TRIAL'],
      isActive: false,
    }),
  ],
  entitlements: ['BASIC', 'EXPORT_PDF', 'PRO'],
});
const newcomer = user(2);

const noop = () => {};

function renderTable(hasPlans?: boolean) {
  renderWithProviders(
    <DataTable
      table={applicationUsersTable({
        isHwidLockEnabled: false,
        ...(hasPlans === undefined ? {} : { hasPlans }),
        busyUserId: null,
        onEdit: noop,
        onTogglePause: noop,
        onResetHwid: noop,
        onDelete: noop,
      })}
      rows={[holder, newcomer]}
    />,
  );
}

const headers = () => screen.getAllByRole('columnheader').map((header) => header.textContent);

/** The Plans cell of a user's row, by the table's Plans column. */
function plansCell(username: string): HTMLElement {
  const column = headers().indexOf('Plans');
  expect(column).toBeGreaterThan(-1);
  return within(screen.getByTestId(`user-row-${username}`)).getAllByRole('cell')[column]!;
}

describe("the users table's Plans column", () => {
  it('lists each subscription with its expiry, and the active entitlements as codes', () => {
    renderTable(true);
    const cell = plansCell('pilot_1');
    const badges = within(cell).getByRole('list', { name: 'Plans of pilot_1' });
    expect(
      within(badges)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Basic lifetime', 'Pro Monthly until 3/14/2099', 'Trial until 6/15/2001 (expired)']);

    // An expired subscription is muted and struck; the active ones are not.
    const trial = within(badges).getByText('Trial').parentElement!;
    expect(trial.dataset.expired).toBe('true');
    expect(trial.className).toContain('line-through');
    expect(within(trial).getByText('(expired)').className).toContain('sr-only');
    const pro = within(badges).getByText('Pro Monthly').parentElement!;
    expect(pro.dataset.expired).toBeUndefined();
    expect(pro.className).not.toContain('line-through');
    expect(pro.title).toMatch(/^Pro Monthly, until Mar 14, 2099/);

    // Only what the active subscriptions grant (the server's union), in code.
    const codes = within(cell).getByRole('list', { name: 'Entitlements of pilot_1' });
    const items = within(codes).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['BASIC', 'EXPORT_PDF', 'PRO']);
    expect(items[0]!.querySelector('code')?.className).toContain('font-mono');
    expect(within(cell).queryByText('TRIAL')).toBeNull();
  });

  it('says None for a user who holds nothing', () => {
    renderTable(true);
    const cell = plansCell('pilot_2');
    expect(cell.textContent).toBe('None');
    expect(within(cell).queryByRole('list')).toBeNull();
  });

  it('is left out for an application without plans, keeping the spec columns', () => {
    renderTable();
    const specColumns = ['Username', 'Email', 'Status', 'HWID', 'Last Login', 'Expires', 'Actions'];
    expect(headers()).toEqual(specColumns);
    expect(screen.queryByRole('list', { name: 'Plans of pilot_1' })).toBeNull();
  });

  it('sits between Expires and Actions when the application has plans', () => {
    renderTable(true);
    expect(headers()).toEqual([
      'Username',
      'Email',
      'Status',
      'HWID',
      'Last Login',
      'Expires',
      'Plans',
      'Actions',
    ]);
  });
});
