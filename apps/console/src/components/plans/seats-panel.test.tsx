import type { SeatLease } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { openDialog } from '@/test/open-dialog.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { stubResizeObserver, stubScrollIntoView } from '@/test/jsdom-stubs.ts';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { createPlan, jsonResponse, orbit, recordOwnerApi } from '@/test/stub-owner-api.ts';
import { PlansPanel } from './plans-panel.tsx';

const PLANS_PATH = '/api/applications/7/plans';
const SEATS_PATH = '/api/applications/7/seats';

const team = createPlan(1, { name: 'Team', floating: true, seats: 5, maxBorrowDays: 7 });
const seat = (index: number, overrides: Partial<SeatLease> = {}): SeatLease => ({
  id: `30000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  userId: '40000000-0000-4000-8000-000000000001',
  username: 'studio',
  hwid: `HWID-${index}-ABCDEFGH1234567${index}`,
  expiresAt: '2025-03-15T09:00:00.000Z',
  borrowedUntil: null,
  leasedAt: '2025-03-15T08:00:00.000Z',
  ...overrides,
});

/** Plans and seats in memory: a freed seat leaves the list. */
function stubApi(plans = [team], initialSeats: SeatLease[] = []) {
  let seats = [...initialSeats];
  return recordOwnerApi(({ method, url, body }) => {
    if (url.pathname === PLANS_PATH && method === 'GET') return jsonResponse(200, plans);
    if (url.pathname === PLANS_PATH && method === 'POST') {
      return jsonResponse(201, createPlan(9, body as object));
    }
    if (url.pathname === SEATS_PATH && method === 'GET') {
      // Searched as the server does: the holder's name or the HWID containing the text.
      const search = url.searchParams.get('search')?.toLowerCase() ?? '';
      return jsonResponse(
        200,
        seats.filter((each) =>
          [each.username, each.hwid ?? ''].some((text) => text.toLowerCase().includes(search)),
        ),
      );
    }
    const freed = seats.find(({ id }) => url.pathname === `${SEATS_PATH}/${id}`);
    if (freed && method === 'DELETE') {
      seats = seats.filter(({ id }) => id !== freed.id);
      return jsonResponse(200, { success: true, message: 'Seat freed' });
    }
    return undefined;
  });
}

describe('PlansPanel: floating seats', { timeout: 30_000 }, () => {
  resetEachTest(stubScrollIntoView, stubResizeObserver);

  it('lists the seats in use under a floating plan, borrowed ones marked, and frees one after a confirmation', async () => {
    const api = stubApi(
      [team],
      [seat(1), seat(2, { username: 'laptop', borrowedUntil: '2025-03-20T08:00:00.000Z' })],
    );
    renderSignedIn(<PlansPanel application={orbit} />);
    expect(await screen.findByText('5 floating seats, borrowed up to 7 days')).toBeTruthy();
    const seats = screen;
    expect(await seats.findByText('studio')).toBeTruthy();
    expect(seats.getByText('Borrowed')).toBeTruthy();
    fireEvent.click(seats.getByRole('button', { name: /^Free seat of studio/ }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Free this seat?' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Free Seat' }));
    await findToast('Seat freed successfully');
    expect(api.sent('DELETE', `${SEATS_PATH}/${seat(1).id}`)).toHaveLength(1);
    await waitFor(() => expect(seats.queryByText('studio')).toBeNull());
  });

  it('says no seat is in use, and shows no seats for an application without a floating plan', async () => {
    stubApi([team], []);
    const { unmount } = renderSignedIn(<PlansPanel application={orbit} />);
    expect(await screen.findByRole('heading', { name: 'No seats in use' })).toBeTruthy();
    unmount();
    stubApi([createPlan(2, { name: 'Solo' })], []);
    renderSignedIn(<PlansPanel application={orbit} />);
    expect(await screen.findByText('Solo')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Seats in use' })).toBeNull();
  });

  it('searches the seats by holder or HWID, and says when none match', async () => {
    const api = stubApi([team], [seat(1), seat(2, { username: 'laptop' })]);
    renderSignedIn(<PlansPanel application={orbit} />);
    expect(await screen.findByText('studio')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search seats' }), {
      target: { value: 'lap' },
    });
    await waitFor(() => expect(screen.queryByText('studio')).toBeNull());
    expect(screen.getByText('laptop')).toBeTruthy();
    expect(api.sent('GET', SEATS_PATH).some(({ path }) => path.includes('search=lap'))).toBe(true);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search seats' }), {
      target: { value: 'nobody' },
    });
    expect(await screen.findByRole('heading', { name: 'No matching seats' })).toBeTruthy();
  });

  it('makes a plan floating in the dialog: the seats appear and are sent', async () => {
    const api = stubApi([], []);
    renderSignedIn(<PlansPanel application={orbit} />);
    await screen.findByRole('heading', { name: 'No plans yet' });
    const dialog = await openDialog('Create Plan');
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'Team' } });
    expect(dialog.queryByLabelText(/^Seats/)).toBeNull();
    fireEvent.click(dialog.getByRole('switch', { name: 'Floating seats' }));
    fireEvent.change(dialog.getByLabelText(/^Seats/), { target: { value: '0' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(await dialog.findByText('Seats must be between 1 and 10000')).toBeTruthy();
    fireEvent.change(dialog.getByLabelText(/^Seats/), { target: { value: '10' } });
    fireEvent.change(dialog.getByLabelText('Borrow up to days'), { target: { value: '7' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    await waitFor(() => expect(api.sent('POST', PLANS_PATH)).toHaveLength(1));
    expect(api.sent('POST', PLANS_PATH)[0]?.body).toMatchObject({
      floating: true,
      seats: 10,
      leaseMinutes: 60,
      maxBorrowDays: 7,
    });
  });
});
