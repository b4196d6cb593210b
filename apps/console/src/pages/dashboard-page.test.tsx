import type { Application, DashboardStats, ShopSales } from '@latchkey/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { dismissToast } from '@/hooks/use-toast.ts';
import {
  createCurrentUser,
  renderWithProviders,
  signedInAuth,
} from '@/test/render-with-providers.tsx';
import {
  createActivityChart,
  createApplication,
  jsonResponse,
  neverAnswered,
  pagedResponse,
  stubOwnerApi,
  type OwnerApiRoute,
} from '@/test/stub-owner-api.ts';
import { DashboardPage } from './dashboard-page.tsx';

const stats: DashboardStats = {
  totalApplications: 2,
  activeApplications: 2,
  totalUsers: 0,
  totalActiveSessions: 0,
  unusedLicenses: 0,
  usedLicenses: 0,
  totalApiKeys: 2,
  activeApiKeys: 2,
  accountType: 'Enterprise',
};

/**
 * The owner API behind the dashboard, with its applications in memory so the list is re-read
 * after a delete as it would be. `applications` may also answer the list with an error.
 */
const noSales: ShopSales = { today: [], last30Days: [] };

function stubDashboardApi({
  applications = [] as Application[],
  applicationsAnswer = null as (() => Response | Promise<Response>) | null,
  sales = noSales,
} = {}) {
  const state = { applications: [...applications], applicationsAnswer };
  const route: OwnerApiRoute = ({ method, url }) => {
    const path = url.pathname;
    if (path === '/api/dashboard/stats') return jsonResponse(200, stats);
    if (path === '/api/dashboard/activity-chart') return jsonResponse(200, createActivityChart());
    if (path === '/api/dashboard/sales') return jsonResponse(200, sales);
    if (path === '/api/applications' && method === 'GET') {
      return state.applicationsAnswer?.() ?? jsonResponse(200, state.applications);
    }
    const users = /^\/api\/applications\/(\d+)\/users$/.exec(path);
    if (users) return pagedResponse([]);
    const one = /^\/api\/applications\/(\d+)$/.exec(path);
    if (one && method === 'DELETE') {
      state.applications = state.applications.filter(({ id }) => id !== Number(one[1]));
      return jsonResponse(200, { success: true, message: 'Application deleted' });
    }
    return undefined;
  };
  return { sent: stubOwnerApi(route), state };
}

function renderDashboard(user = createCurrentUser()) {
  return renderWithProviders(<DashboardPage />, {
    path: '/dashboard',
    auth: signedInAuth(user),
    toaster: true,
  });
}

const usersTab = () => screen.getByRole('tab', { name: /^Users/ });

describe('DashboardPage', { timeout: 30_000 }, () => {
  beforeEach(() => dismissToast());

  it('greets the owner and shows loading, never empty, while the applications load', () => {
    stubOwnerApi(() => neverAnswered());
    renderDashboard();

    expect(screen.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeTruthy();
    expect(
      screen.getByText('Welcome back, Ada. Manage your applications, API keys and users.'),
    ).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Loading applications' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'No Applications' })).toBeNull();
    // Until the stats say otherwise, the account type shown is the default.
    expect(screen.getByTestId('account-type').textContent).toBe('Premium');
    expect(usersTab().textContent).toBe('Users');
    expect(usersTab().hasAttribute('disabled')).toBe(true);
  });

  it('greets by e-mail when there is no first name', () => {
    stubOwnerApi(() => neverAnswered());
    renderDashboard(createCurrentUser({ firstName: '', email: 'ops@example.com' }));
    expect(
      screen.getByText(
        'Welcome back, ops@example.com. Manage your applications, API keys and users.',
      ),
    ).toBeTruthy();
  });

  it('offers to create the first application when there is none', async () => {
    stubDashboardApi();
    renderDashboard();

    const empty = await screen.findByRole('heading', { name: 'No Applications' });
    const emptyState = empty.parentElement!;
    expect(
      within(emptyState).getByText(
        'Create your first application to get an API key and start adding users.',
      ),
    ).toBeTruthy();
    expect(within(emptyState).getByRole('button', { name: 'Create Application' })).toBeTruthy();
    expect(await screen.findByText('Enterprise')).toBe(screen.getByTestId('account-type'));
    expect(usersTab().hasAttribute('disabled')).toBe(true);
  });

  it("shows the server's reason when the applications cannot be loaded, and Try Again loads them", async () => {
    const { state } = stubDashboardApi({
      applications: [createApplication({ id: 7, name: 'Orbit' })],
      applicationsAnswer: () =>
        jsonResponse(500, { message: 'Database unavailable', code: 'INTERNAL' }),
    });
    const user = userEvent.setup();
    renderDashboard();

    const heading = await screen.findByRole('heading', { name: 'Error loading applications' });
    expect(within(heading.parentElement!).getByText('Database unavailable')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Applications' })).toBeNull();

    state.applicationsAnswer = null;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    const list = await screen.findByRole('region', { name: 'Applications' });
    expect(within(list).getByText('Orbit')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Error loading applications' })).toBeNull();
  });

  it('names the Users tab after the selected application, and forgets a deleted one', async () => {
    const { sent } = stubDashboardApi({
      applications: [
        createApplication({ id: 7, name: 'Orbit' }),
        createApplication({ id: 8, name: 'Comet' }),
        // A third, so that two are left after the delete: none of them is chosen for the owner.
        createApplication({ id: 9, name: 'Nova' }),
      ],
    });
    const user = userEvent.setup();
    renderDashboard();
    await screen.findByRole('region', { name: 'Applications' });

    // Choosing a row selects it without leaving the list.
    await user.click(screen.getByText('Comet'));
    expect(usersTab().textContent).toBe('Users (Comet)');
    expect(usersTab().hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('application-row-8').getAttribute('aria-current')).toBe('true');

    // View users selects that row's application and opens its users.
    const orbitRow = screen.getByTestId('application-row-7');
    await user.click(within(orbitRow).getByRole('button', { name: 'View users' }));
    expect(usersTab().textContent).toBe('Users (Orbit)');
    expect(usersTab().getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByRole('heading', { name: 'No Users' })).toBeTruthy();
    expect(sent.map((request) => request.path)).toContain('/api/applications/7/users');

    await user.click(screen.getByRole('tab', { name: 'Applications' }));
    await user.click(
      within(screen.getByTestId('application-row-7')).getByRole('button', {
        name: 'Delete application',
      }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete application?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete Application' }));

    expect(await screen.findByText('Application deleted successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('application-row-7')).toBeNull());
    expect(usersTab().textContent).toBe('Users');
    expect(usersTab().hasAttribute('disabled')).toBe(true);
  });

  it('selects the only application of an account that has one, also once a delete leaves one', async () => {
    stubDashboardApi({
      applications: [
        createApplication({ id: 7, name: 'Orbit' }),
        createApplication({ id: 8, name: 'Comet' }),
      ],
    });
    const user = userEvent.setup();
    renderDashboard();
    await screen.findByRole('region', { name: 'Applications' });
    expect(usersTab().hasAttribute('disabled')).toBe(true);

    await user.click(
      within(screen.getByTestId('application-row-8')).getByRole('button', {
        name: 'Delete application',
      }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete application?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete Application' }));

    await waitFor(() => expect(screen.queryByTestId('application-row-8')).toBeNull());
    expect(usersTab().textContent).toBe('Users (Orbit)');
    expect(usersTab().hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('application-row-7').getAttribute('aria-current')).toBe('true');
    await user.click(usersTab());
    expect(await screen.findByRole('heading', { name: 'No Users' })).toBeTruthy();
  });

  it('shows what the shops sold per currency, and says how to start when nothing did', async () => {
    stubDashboardApi({
      sales: {
        today: [{ currency: 'USD', orders: 1, revenue: 1900, refunds: 0 }],
        last30Days: [
          { currency: 'USD', orders: 3, revenue: 4800, refunds: 1 },
          { currency: 'JPY', orders: 1, revenue: 1200, refunds: 0 },
        ],
      },
    });
    renderDashboard();
    const usd = await screen.findByTestId('sales-USD');
    expect(usd.textContent).toContain('$19.00');
    expect(usd.textContent).toContain('1 order');
    expect(usd.textContent).toContain('$48.00');
    expect(usd.textContent).toContain('3 orders, 1 refunded');
    const yen = screen.getByTestId('sales-JPY');
    expect(yen.textContent).toContain('¥0');
    expect(yen.textContent).toContain('¥1,200');
  });

  it('says how to start selling when no shop sold anything', async () => {
    stubDashboardApi();
    renderDashboard();
    expect(await screen.findByText('No sales in the last 30 days')).toBeTruthy();
  });
});
