import { SEARCH_COUNT_LIMIT, type ActivityLog, type ActivityLogStats } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { ACTIVITY_STATS_CAPPED_DESCRIPTION } from '@/components/activity-logs/activity-log-stats.tsx';
import { UNKNOWN_STAT_VALUE } from '@/components/ui/stat-card.tsx';
import { ActivityLogsPage } from './activity-logs-page.tsx';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

const noStats: ActivityLogStats = {
  totalEvents: 0,
  successful: 0,
  failed: 0,
  uniqueIps: 0,
  isCapped: false,
};

/**
 * The owner API as the server answers it: `logs` are every log the owner has, paged 50 at a
 * time with the paging headers, searched by username; the stats answer is given as is.
 */
function stubOwnerApi({
  logs = [],
  listStatus = 200,
  stats = { status: 200, body: noStats },
  countLimit = Infinity,
}: {
  logs?: ActivityLog[];
  listStatus?: number;
  stats?: { status: number; body: unknown };
  /** Past this many matches the total is capped, as the server caps a search's count. */
  countLimit?: number;
}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/activity-logs/stats') return json(stats.body, stats.status);
    if (url.pathname !== '/api/activity-logs') return json([]);
    if (listStatus !== 200) {
      return json({ message: 'Database unavailable', code: 'INTERNAL' }, listStatus);
    }
    const page = Number(url.searchParams.get('page') ?? 1);
    const search = url.searchParams.get('search') ?? '';
    const matching = logs.filter((log) => (log.username ?? '').includes(search));
    const isCapped = matching.length > countLimit;
    return json(matching.slice((page - 1) * 50, page * 50), 200, {
      'X-Total-Count': String(isCapped ? countLimit : matching.length),
      'X-Page': String(page),
      'X-Page-Size': '50',
      ...(isCapped ? { 'X-Total-Count-Capped': 'true' } : {}),
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPage() {
  return renderWithProviders(<ActivityLogsPage />, {
    path: '/activity-logs',
    auth: signedInAuth(),
  });
}

const log: ActivityLog = {
  id: 1,
  event: 'login_failed',
  success: false,
  applicationId: 42,
  application: { name: '' },
  appUser: null,
  username: null,
  ipAddress: null,
  errorMessage: 'Invalid username or password',
  metadata: { code: 'INVALID_CREDENTIALS' },
  createdAt: '2025-03-14T12:00:00.000Z',
};

const manyLogs = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    ...log,
    id: count - index,
    username: `user-${count - index}`,
  }));

describe('ActivityLogsPage', { timeout: 30_000 }, () => {
  it('says nothing has been recorded when the owner has no logs', async () => {
    const fetchMock = stubOwnerApi({});
    renderPage();
    expect(
      await screen.findByRole('heading', {
        name: 'No authentication events have been recorded yet',
      }),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('activity-stat-total').textContent).toBe('0'));
    expect(fetchMock).toHaveBeenCalledWith('/api/activity-logs', expect.anything());
    expect(fetchMock).toHaveBeenCalledWith('/api/activity-logs/stats', expect.anything());
  });

  it("says 'Failed to fetch activity logs' when the list cannot be read", async () => {
    stubOwnerApi({ listStatus: 500 });
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'Failed to fetch activity logs' }),
    ).toBeTruthy();
    expect(screen.getByText('Database unavailable')).toBeTruthy();
  });

  it("shows a row's fallbacks: 'Unknown' user and IP, 'App {id}', the error as details", async () => {
    stubOwnerApi({ logs: [log] });
    renderPage();
    const row = within(await screen.findByTestId('activity-log-row'));
    expect(row.getByRole('img', { name: 'Failure' })).toBeTruthy();
    expect(row.getByText('Login Failed')).toBeTruthy();
    expect(row.getAllByText('Unknown')).toHaveLength(2);
    expect(row.getByText('App 42')).toBeTruthy();
    expect(row.getByText('Invalid username or password')).toBeTruthy();
  });

  it('labels the device events, with who released a device in the details', async () => {
    stubOwnerApi({
      logs: [
        {
          ...log,
          id: 2,
          event: 'device_released',
          success: true,
          username: 'pilot',
          errorMessage: null,
          metadata: { hwid: 'HWID-1', releasedBy: 'owner' },
        },
        {
          ...log,
          id: 1,
          event: 'device_added',
          success: true,
          username: 'pilot',
          errorMessage: null,
          metadata: { hwid: 'HWID-1', deviceName: 'OFFICE-PC' },
        },
      ],
    });
    renderPage();
    const [released, added] = (await screen.findAllByTestId('activity-log-row')).map((row) =>
      within(row),
    );
    expect(released!.getByText('Device Released')).toBeTruthy();
    expect(released!.getByText('hwid HWID-1 · releasedBy owner')).toBeTruthy();
    expect(added!.getByText('Device Added')).toBeTruthy();
    expect(added!.getByRole('img', { name: 'Success' })).toBeTruthy();
  });

  it('reads a capped total as a floor: "of 100+" under the list, "10,000+" and unknowns in the cards', async () => {
    stubOwnerApi({
      logs: manyLogs(120),
      countLimit: 100,
      stats: {
        status: 200,
        body: {
          totalEvents: SEARCH_COUNT_LIMIT,
          successful: null,
          failed: null,
          uniqueIps: null,
          isCapped: true,
        },
      },
    });
    renderPage();
    expect(await screen.findByText('Showing 1–50 of 100+')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('activity-stat-total').textContent).toBe('10,000+'),
    );
    // An unknown figure reads as the dash (and "Unknown" to a screen reader), never as 0.
    for (const card of ['successful', 'failed', 'unique-ips']) {
      expect(screen.getByTestId(`activity-stat-${card}`).textContent).toMatch(
        new RegExp(`^${UNKNOWN_STAT_VALUE}\\D*$`),
      );
    }
    expect(screen.getAllByText(ACTIVITY_STATS_CAPPED_DESCRIPTION)).toHaveLength(3);
  });

  it("shows the server's figures over every page, and pages with the server's total", async () => {
    const fetchMock = stubOwnerApi({
      logs: manyLogs(120),
      stats: {
        status: 200,
        body: { totalEvents: 120, successful: 0, failed: 120, uniqueIps: 7, isCapped: false },
      },
    });
    renderPage();
    expect(await screen.findByText('Showing 1–50 of 120')).toBeTruthy();
    expect(screen.getAllByTestId('activity-log-row')).toHaveLength(50);
    await waitFor(() => expect(screen.getByTestId('activity-stat-total').textContent).toBe('120'));
    expect(screen.getByTestId('activity-stat-unique-ips').textContent).toBe('7');

    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Showing 51–100 of 120')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/activity-logs?page=2', expect.anything());
    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Showing 101–120 of 120')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Next/ }).hasAttribute('disabled')).toBe(true);
  });

  it('asks the server to search, back on the first page, and says when nothing matches', async () => {
    const fetchMock = stubOwnerApi({ logs: manyLogs(120) });
    renderPage();
    expect(await screen.findByText('Showing 1–50 of 120')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Showing 51–100 of 120')).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'user-11' } });
    // user-11 and user-110 … user-119.
    expect(
      await screen.findByText('Showing 1–11 of 11', undefined, { timeout: 5000 }),
    ).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/activity-logs?search=user-11', expect.anything());
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/activity-logs/stats?search=user-11',
      expect.anything(),
    );

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'nobody' } });
    expect(
      await screen.findByRole(
        'heading',
        { name: 'No logs match your current filters' },
        { timeout: 5000 },
      ),
    ).toBeTruthy();
  });

  it('shows the figures as unknown, with a Retry, when they cannot be read', async () => {
    stubOwnerApi({ logs: [log], stats: { status: 500, body: { message: 'x', code: 'INTERNAL' } } });
    renderPage();
    expect(await screen.findByText('Could not load the event statistics.')).toBeTruthy();
    expect(screen.getByTestId('activity-stat-total').textContent).toBe('—Unknown');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    // The table still shows what it has.
    expect(screen.getByTestId('activity-log-row')).toBeTruthy();
  });
});
