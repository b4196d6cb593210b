import type { BulkAppUserResult } from '@latchkey/contracts';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsersTab } from '@/components/dashboard/users-tab.tsx';
import { dismissToast } from '@/hooks/use-toast.ts';
import { dispatchOwnerEvent } from '@/lib/owner-events.ts';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import {
  createApplication,
  createAppUserRow,
  jsonResponse,
  pagedResponse,
  stubOwnerApi,
  type SentRequest,
} from '@/test/stub-owner-api.ts';

const application = createApplication({
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});
const users = Array.from({ length: 120 }, (_, index) =>
  createAppUserRow(index + 1, { applicationId: application.id, username: `player_${index + 1}` }),
);

/** The users list (pages of 50, searched by username) and a bulk route answered by the test. */
function stubApi() {
  let answerBulk: (result: BulkAppUserResult) => void = () => {};
  const sent = stubOwnerApi(({ method, url }) => {
    if (method === 'GET' && url.pathname === `/api/applications/${application.id}/users`) {
      const page = Number(url.searchParams.get('page') ?? 1);
      const search = url.searchParams.get('search') ?? '';
      const matching = users.filter((user) => user.username.includes(search));
      return pagedResponse(matching.slice((page - 1) * 50, page * 50), {
        page,
        total: matching.length,
      });
    }
    if (method === 'POST' && url.pathname.endsWith('/users/bulk')) {
      return new Promise<Response>((resolve) => {
        answerBulk = (result) => resolve(jsonResponse(200, result));
      });
    }
    return undefined;
  });
  return { sent, answerBulk: (result: BulkAppUserResult) => answerBulk(result) };
}

const bulkRequests = (sent: SentRequest[]) =>
  sent.filter((request) => request.path.endsWith('/users/bulk'));

describe('bulk actions on the dashboard’s Users tab', { timeout: 30_000 }, () => {
  beforeEach(() => dismissToast());
  afterEach(() => vi.unstubAllGlobals());

  it('selects the page, then all matching, confirms with the count, and shows progress then the result', async () => {
    const { sent, answerBulk } = stubApi();
    renderWithProviders(<UsersTab application={application} onGoToApplications={() => {}} />, {
      toaster: true,
    });
    await screen.findByText('Showing 1–50 of 120');
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all users on this page' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('50 users selected')).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: 'Select all 120 users' }));
    expect(within(bar).getByText('All 120 users selected')).toBeTruthy();

    fireEvent.click(within(bar).getByRole('button', { name: 'Pause' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Pause 120 users?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pause 120 users' }));

    await vi.waitFor(() => expect(bulkRequests(sent)).toHaveLength(1));
    const [request] = bulkRequests(sent);
    expect(request?.body).toEqual({
      operationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      action: 'pause',
      matching: { search: '' },
    });
    const { operationId } = request!.body as { operationId: string };
    const progressbar = await screen.findByRole('progressbar', { name: 'Bulk action progress' });
    expect(progressbar.getAttribute('aria-valuetext')).toBe('Starting');

    // Another operation's events are not ours.
    act(() =>
      dispatchOwnerEvent({
        type: 'bulk_progress',
        data: {
          operationId: crypto.randomUUID(),
          applicationId: application.id,
          action: 'pause',
          total: 9,
          done: 9,
          skipped: 0,
          isFinished: true,
          error: null,
        },
      }),
    );
    expect(progressbar.getAttribute('aria-valuetext')).toBe('Starting');
    act(() =>
      dispatchOwnerEvent({
        type: 'bulk_progress',
        data: {
          operationId,
          applicationId: application.id,
          action: 'pause',
          total: 120,
          done: 50,
          skipped: 10,
          isFinished: false,
          error: null,
        },
      }),
    );
    expect(progressbar.getAttribute('aria-valuetext')).toBe('60 of 120 users');
    expect(progressbar.getAttribute('aria-valuenow')).toBe('50');

    const listReadsBefore = sent.filter((request) => request.method === 'GET').length;
    await act(async () =>
      answerBulk({
        operationId,
        action: 'pause',
        total: 120,
        done: 110,
        skipped: 10,
        skippedReasons: [{ reason: 'already_paused', count: 10 }],
      }),
    );
    const result = await screen.findByTestId('bulk-result');
    expect(within(result).getByText('Pause: 110 done, 10 skipped.')).toBeTruthy();
    expect(within(result).getByText('Skipped, already paused: 10')).toBeTruthy();
    expect(within(result).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(
      await screen.findByText('110 users updated, 10 skipped (already paused: 10)', {
        selector: 'li *',
      }),
    ).toBeTruthy();
    // The selection is cleared and the list read again.
    expect(screen.queryByText('All 120 users selected')).toBeNull();
    await vi.waitFor(() =>
      expect(sent.filter((request) => request.method === 'GET').length).toBeGreaterThan(
        listReadsBefore,
      ),
    );
  });

  it('sends the ticked ids, and asks for the days before an extension', async () => {
    const { sent } = stubApi();
    renderWithProviders(<UsersTab application={application} onGoToApplications={() => {}} />);
    await screen.findByText('Showing 1–50 of 120');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select player_1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select player_2' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('2 users selected')).toBeTruthy();
    // Not every row of the page is ticked: nothing more to offer.
    expect(within(bar).queryByRole('button', { name: /Select all/ })).toBeNull();

    fireEvent.click(within(bar).getByRole('button', { name: 'Extend' }));
    const dialog = await screen.findByRole('alertdialog');
    const days = within(dialog).getByLabelText('Days to add');
    fireEvent.change(days, { target: { value: '0' } });
    expect(within(dialog).getByRole('button', { name: 'Extend 2 users' })).toHaveProperty(
      'disabled',
      true,
    );
    fireEvent.change(days, { target: { value: '45' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Extend 2 users' }));
    await vi.waitFor(() => expect(bulkRequests(sent)).toHaveLength(1));
    expect(bulkRequests(sent)[0]?.body).toEqual({
      operationId: expect.any(String),
      action: 'extend',
      days: 45,
      userIds: [users[0]!.id, users[1]!.id],
    });
  });
});
