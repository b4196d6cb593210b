import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { UsersTab } from './users-tab.tsx';
import { createApplication, createAppUserRow } from '@/test/stub-owner-api.ts';

const application = createApplication({
  apiKey: 'lk_live_key',
  signingPublicKey: '0'.repeat(64),
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

const user = (index: number) => createAppUserRow(index, { username: `player_${index}` });

/** The server's paged answer: 120 users (or `userCount`) in all, pages of 50, searched by username. */
function stubUsersApi({ userCount = 120 } = {}) {
  const all = Array.from({ length: userCount }, (_, index) => user(userCount - index));
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    const page = Number(url.searchParams.get('page') ?? 1);
    const search = url.searchParams.get('search') ?? '';
    const matching = all.filter((candidate) => candidate.username.includes(search));
    const rows = matching.slice((page - 1) * 50, page * 50);
    return new Response(JSON.stringify(rows), {
      status: 200,
      headers: {
        'Content-Type': 'application/json',
        'X-Total-Count': String(matching.length),
        'X-Page': String(page),
        'X-Page-Size': '50',
      },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const bodyRows = () => screen.getAllByRole('row').slice(1);

describe('UsersTab paging and search', { timeout: 30_000 }, () => {
  it('shows one page with "Showing a–b of N" from the header and pages with Previous/Next', async () => {
    const fetchMock = stubUsersApi();
    renderWithProviders(<UsersTab application={application} onGoToApplications={() => {}} />);
    expect(await screen.findByText('Showing 1–50 of 120')).toBeTruthy();
    expect(bodyRows()).toHaveLength(50);
    // The first page asks exactly as before paging: no query string.
    expect(fetchMock).toHaveBeenCalledWith('/api/applications/7/users', expect.anything());
    const pager = screen.getByRole('navigation', { name: 'Users pages' });
    expect(within(pager).getByRole('button', { name: /Previous/ })).toHaveProperty(
      'disabled',
      true,
    );

    fireEvent.click(within(pager).getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Showing 51–100 of 120')).toBeTruthy();
    fireEvent.click(within(pager).getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Showing 101–120 of 120')).toBeTruthy();
    expect(bodyRows()).toHaveLength(20);
    expect(within(pager).getByRole('button', { name: /Next/ })).toHaveProperty('disabled', true);
    expect(fetchMock).toHaveBeenCalledWith('/api/applications/7/users?page=3', expect.anything());
  });

  it('searches on the server and starts again from the first page', async () => {
    const fetchMock = stubUsersApi();
    renderWithProviders(<UsersTab application={application} onGoToApplications={() => {}} />);
    await screen.findByText('Showing 1–50 of 120');
    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    await screen.findByText('Showing 51–100 of 120');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search users' }), {
      target: { value: 'player_11' },
    });
    expect(
      await screen.findByText('Showing 1–11 of 11', undefined, { timeout: 5000 }),
    ).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/applications/7/users?search=player_11',
      expect.anything(),
    );
    // Rows by their marker: the first cell is the row's selection checkbox.
    expect(bodyRows().map((row) => row.getAttribute('data-testid'))).toContain(
      'user-row-player_110',
    );
  });

  it('says No Users only when the application has none, not when a search matches nothing', async () => {
    stubUsersApi({ userCount: 0 });
    const { unmount } = renderWithProviders(
      <UsersTab application={application} onGoToApplications={() => {}} />,
    );
    expect(await screen.findByRole('heading', { name: 'No Users' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Users pages' })).toBeNull();
    unmount();

    stubUsersApi();
    renderWithProviders(<UsersTab application={application} onGoToApplications={() => {}} />);
    await screen.findByText('Showing 1–50 of 120');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search users' }), {
      target: { value: 'nobody' },
    });
    // The table stays, with no rows, and the pager says so.
    expect(await screen.findByText('Showing 0 of 0', undefined, { timeout: 5000 })).toBeTruthy();
    expect(bodyRows()).toHaveLength(0);
    expect(screen.queryByRole('heading', { name: 'No Users' })).toBeNull();
  });
});
