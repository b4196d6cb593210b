import type { Application } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROW_ACTIONS_MENU_MEDIA_QUERY } from '@/components/ui/row-actions.tsx';
import { fakeMediaQueryList } from '@/test/jsdom-stubs.ts';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { createApplication as createStubApplication } from '@/test/stub-owner-api.ts';
import { ApplicationsTable } from './applications-table.tsx';

const API_KEY = 'lk_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHI';

function createApplication(overrides: Partial<Application> = {}): Application {
  return createStubApplication({
    name: 'Acme Desktop',
    description: 'Licensing for Acme',
    apiKey: API_KEY,
    ...overrides,
  });
}

function renderTable(applications: Application[], selectedApplicationId: number | null = null) {
  const handlers = {
    onSelect: vi.fn(),
    onShowUsers: vi.fn(),
    onEdit: vi.fn(),
    onDelete: vi.fn(),
  };
  renderWithProviders(
    <ApplicationsTable
      applications={applications}
      selectedApplicationId={selectedApplicationId}
      {...handlers}
    />,
  );
  return handlers;
}

describe('ApplicationsTable', () => {
  it('masks the key until revealed, and hides it again', () => {
    renderTable([createApplication()]);
    const key = screen.getByTestId('api-key');
    expect(key.textContent).toBe(`lk_live_0123${'•'.repeat(20)}BCDEFGHI`);

    fireEvent.click(screen.getByRole('button', { name: 'Reveal API key' }));
    expect(key.textContent).toBe(API_KEY);
    fireEvent.click(screen.getByRole('button', { name: 'Hide API key' }));
    expect(key.textContent).not.toContain('456789');
  });

  it('shows name, description, status and a short en-US date, and links to the management page', () => {
    renderTable([createApplication(), createApplication({ id: 8, name: 'Old', isActive: false })]);
    const [, activeRow, inactiveRow] = screen.getAllByRole('row');
    expect(activeRow!.textContent).toContain('Licensing for Acme');
    expect(within(activeRow!).getByText('Active')).toBeTruthy();
    expect(within(activeRow!).getByText('3/14/2025')).toBeTruthy();
    expect(within(inactiveRow!).getByText('Inactive')).toBeTruthy();
    expect(
      within(inactiveRow!).getByRole('link', { name: 'Manage application' }).getAttribute('href'),
    ).toBe('/app/8');
  });

  it('selects on a row click, but a row action does only its own job', () => {
    const application = createApplication();
    const handlers = renderTable([application], application.id);
    const row = screen.getAllByRole('row')[1]!;
    expect(row.getAttribute('aria-current')).toBe('true');

    fireEvent.click(within(row).getByText('Acme Desktop'));
    expect(handlers.onSelect).toHaveBeenCalledWith(application);

    fireEvent.click(within(row).getByRole('button', { name: 'Delete application' }));
    expect(handlers.onDelete).toHaveBeenCalledWith(application);
    fireEvent.click(within(row).getByRole('button', { name: 'Edit application' }));
    expect(handlers.onEdit).toHaveBeenCalledWith(application);
    expect(handlers.onSelect).toHaveBeenCalledTimes(1);
  });

  describe('on a phone', () => {
    afterEach(() => vi.restoreAllMocks());

    it('folds each row’s actions into a menu named after it; an item does not select the row', async () => {
      vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
        fakeMediaQueryList(query, query === ROW_ACTIONS_MENU_MEDIA_QUERY),
      );
      const application = createApplication();
      const handlers = renderTable([application, createApplication({ id: 8, name: 'Old' })]);
      const row = screen.getAllByRole('row')[1]!;
      expect(within(row).getAllByRole('button')).toHaveLength(1);
      expect(within(row).queryByRole('button', { name: 'Edit application' })).toBeNull();

      const user = userEvent.setup();
      await user.click(within(row).getByRole('button', { name: 'Actions for Acme Desktop' }));
      const menu = await screen.findByRole('menu');
      expect(
        within(menu).getByRole('menuitem', { name: 'Manage application' }).getAttribute('href'),
      ).toBe(`/app/${application.id}`);
      await user.click(within(menu).getByRole('menuitem', { name: 'Edit application' }));
      expect(handlers.onEdit).toHaveBeenCalledWith(application);
      expect(handlers.onSelect).not.toHaveBeenCalled();
      await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      expect(screen.getByRole('button', { name: 'Actions for Old' })).toBeTruthy();
    });
  });
});
