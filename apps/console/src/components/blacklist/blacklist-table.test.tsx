import type { BlacklistEntry } from '@latchkey/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DataTable } from '@/components/ui/data-table.tsx';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { blacklistTable } from './blacklist-table.tsx';

const entries: BlacklistEntry[] = [
  {
    id: 1,
    type: 'ip',
    value: '203.0.113.7',
    reason: null,
    applicationId: null,
    application: null,
    isActive: true,
    createdAt: '2025-03-14T12:00:00.000Z',
  },
  {
    id: 2,
    type: 'hwid',
    value: 'HWID-BAD',
    reason: 'Shared license',
    applicationId: 9,
    application: { name: 'Nova' },
    isActive: false,
    createdAt: '2025-03-14T12:00:00.000Z',
  },
];

describe('BlacklistTable', () => {
  it('shows type labels, scope, reason and status per row', () => {
    renderWithProviders(
      <DataTable table={blacklistTable({ busyEntryId: null, onDelete: vi.fn() })} rows={entries} />,
    );
    const global = within(screen.getByTestId('blacklist-row-1'));
    expect(global.getByText('IP Address')).toBeTruthy();
    expect(global.getByText('Global')).toBeTruthy();
    expect(global.getByText('No reason provided')).toBeTruthy();
    expect(global.getByText('Active')).toBeTruthy();
    expect(global.getByText('3/14/2025')).toBeTruthy();

    const scoped = within(screen.getByTestId('blacklist-row-2'));
    expect(scoped.getByText('Hardware ID')).toBeTruthy();
    expect(scoped.getByText('Nova')).toBeTruthy();
    expect(scoped.getByText('Shared license')).toBeTruthy();
    expect(scoped.getByText('Inactive')).toBeTruthy();
  });

  it('asks to delete the row it is on, and waits while that entry is being deleted', () => {
    const onDelete = vi.fn();
    renderWithProviders(
      <DataTable table={blacklistTable({ busyEntryId: 1, onDelete })} rows={entries} />,
    );
    const deleteFirst = within(screen.getByTestId('blacklist-row-1')).getByRole('button', {
      name: 'Delete blacklist entry',
    });
    expect((deleteFirst as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(
      within(screen.getByTestId('blacklist-row-2')).getByRole('button', {
        name: 'Delete blacklist entry',
      }),
    );
    expect(onDelete).toHaveBeenCalledWith(entries[1]);
  });
});
