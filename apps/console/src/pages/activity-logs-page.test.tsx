import type { ActivityLog } from '@latchkey/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  createAuthValue,
  createCurrentUser,
  renderWithProviders,
} from '@/test/render-with-providers.tsx';
import { ActivityLogsPage } from './activity-logs-page.tsx';

function stubOwnerApi(activityLogs: { status: number; body: unknown }) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    const { status, body } = url.startsWith('/api/activity-logs')
      ? activityLogs
      : { status: 200, body: [] };
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPage() {
  return renderWithProviders(<ActivityLogsPage />, {
    path: '/activity-logs',
    auth: createAuthValue({ user: createCurrentUser(), isAuthenticated: true }),
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

describe('ActivityLogsPage', () => {
  it('says nothing has been recorded when the owner has no logs', async () => {
    const fetchMock = stubOwnerApi({ status: 200, body: [] });
    renderPage();
    expect(
      await screen.findByRole('heading', {
        name: 'No authentication events have been recorded yet',
      }),
    ).toBeTruthy();
    expect(screen.getByTestId('activity-stat-total').textContent).toBe('0');
    expect(fetchMock).toHaveBeenCalledWith('/api/activity-logs', expect.anything());
  });

  it("says 'Failed to fetch activity logs' when the list cannot be read", async () => {
    stubOwnerApi({ status: 500, body: { message: 'Database unavailable', code: 'INTERNAL' } });
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'Failed to fetch activity logs' }),
    ).toBeTruthy();
    expect(screen.getByText('Database unavailable')).toBeTruthy();
  });

  it("shows a row's fallbacks: 'Unknown' user and IP, 'App {id}', the error as details", async () => {
    stubOwnerApi({ status: 200, body: [log] });
    renderPage();
    const row = within(await screen.findByTestId('activity-log-row'));
    expect(row.getByRole('img', { name: 'Failure' })).toBeTruthy();
    expect(row.getByText('Login Failed')).toBeTruthy();
    expect(row.getAllByText('Unknown')).toHaveLength(2);
    expect(row.getByText('App 42')).toBeTruthy();
    expect(row.getByText('Invalid username or password')).toBeTruthy();
    expect(screen.getByTestId('activity-stat-failed').textContent).toBe('1');
    expect(screen.getByTestId('activity-stat-unique-ips').textContent).toBe('0');
  });
});
