import type { ApplicationStats, AppUserListRow } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import {
  createCurrentUser,
  renderWithProviders,
  signedInAuth,
} from '@/test/render-with-providers.tsx';
import {
  createActivityChart,
  createApplication,
  createPlan,
  jsonResponse,
  neverAnswered,
  pagedResponse,
  stubOwnerApi,
  createAppUserRow,
} from '@/test/stub-owner-api.ts';
import { APPLICATION_NOT_FOUND_MESSAGE, ApplicationPage } from './application-page.tsx';

const orbit = createApplication({
  id: 7,
  name: 'Orbit',
  description: null,
  loginFailedMessage: 'Wrong name or password, pilot.',
});

const appUser = (index: number) => createAppUserRow(index);

const stats: ApplicationStats = {
  totalUsers: 42,
  activeUsers: 40,
  activeSessions: 3,
  totalApiRequests: 1000,
  loginSuccessRate: 97.5,
  lastActivity: null,
  unusedLicenses: 0,
  usedLicenses: 0,
};

/** The owner's applications, Orbit's three users (searched by name), its stats and plans. */
function stubApplicationApi({
  isStatsDown = false,
  plans = [] as unknown[],
  users = [appUser(1), appUser(2), appUser(3)],
} = {}) {
  return stubOwnerApi(({ url }) => {
    if (url.pathname === '/api/applications') return jsonResponse(200, [orbit]);
    if (url.pathname === '/api/applications/7/stats') {
      return isStatsDown
        ? jsonResponse(500, { message: 'Statistics are down', code: 'INTERNAL' })
        : jsonResponse(200, stats);
    }
    if (url.pathname === '/api/applications/7/plans') return jsonResponse(200, plans);
    if (url.pathname === '/api/applications/7/activity-chart') {
      return jsonResponse(200, createActivityChart());
    }
    if (url.pathname === '/api/applications/7/users') {
      const search = url.searchParams.get('search') ?? '';
      return pagedResponse(users.filter(({ username }) => username.includes(search)));
    }
    return undefined;
  });
}

function renderApplicationPage(path: string, user = createCurrentUser()) {
  return renderWithProviders(
    <Route path="/app/:id?">
      <ApplicationPage />
    </Route>,
    { path, auth: signedInAuth(user) },
  );
}

const usersTab = () => screen.getByRole('tab', { name: /^Users/ });

describe('ApplicationPage', { timeout: 30_000 }, () => {
  it('refuses an id that cannot be one, without asking the server', () => {
    const sent = stubOwnerApi(() => neverAnswered());
    renderApplicationPage('/app/0');
    expect(screen.getByRole('heading', { name: 'Invalid application ID' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe(
      '/dashboard',
    );
    expect(sent).toEqual([]);
  });

  it('offers the KeyAuth import only to who may manage applications', async () => {
    stubApplicationApi();
    const { unmount } = renderApplicationPage('/app/7');
    expect(await screen.findByRole('button', { name: 'Import' })).toBeTruthy();
    unmount();

    renderApplicationPage(
      '/app/7',
      createCurrentUser({ userPermissions: { role: 'user', permissions: [] } }),
    );
    expect(await screen.findByRole('button', { name: 'Settings' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });

  it('says it is loading the application while the list loads', () => {
    stubOwnerApi(() => neverAnswered());
    renderApplicationPage('/app/7');
    const status = screen
      .getAllByRole('status')
      .find((element) => element.textContent === 'Loading application...');
    expect(status).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Application Not Found' })).toBeNull();
  });

  it("says an application that is not in the owner's list is not found", async () => {
    const sent = stubApplicationApi();
    renderApplicationPage('/app/9');
    const heading = await screen.findByRole('heading', { name: 'Application Not Found' });
    const card = heading.parentElement!;
    expect(within(card).getByText(APPLICATION_NOT_FOUND_MESSAGE)).toBeTruthy();
    expect(APPLICATION_NOT_FOUND_MESSAGE).toBe(
      'This application does not exist, or it belongs to another account.',
    );
    expect(within(card).getByRole('link', { name: 'Back to Dashboard' })).toBeTruthy();
    // Nothing is asked about an application the owner does not have.
    expect(sent.map(({ path }) => path)).toEqual(['/api/applications']);
  });

  it("gives the server's reason, else the status and body, when the list cannot be loaded", async () => {
    stubOwnerApi(() => jsonResponse(500, { message: 'Database unavailable', code: 'INTERNAL' }));
    const { unmount } = renderApplicationPage('/app/7');
    const heading = await screen.findByRole('heading', { name: 'Application Not Found' });
    expect(within(heading.parentElement!).getByText('Database unavailable')).toBeTruthy();
    expect(screen.queryByText(APPLICATION_NOT_FOUND_MESSAGE)).toBeNull();
    unmount();

    stubOwnerApi(() => new Response('upstream down', { status: 502 }));
    renderApplicationPage('/app/7');
    expect(await screen.findByText('502: upstream down')).toBeTruthy();
  });

  it('shows the application with its tabs, and counts its users from the stats', async () => {
    stubApplicationApi();
    const user = userEvent.setup();
    renderApplicationPage('/app/7');

    expect(await screen.findByRole('heading', { name: 'Orbit', level: 1 })).toBeTruthy();
    const header = screen
      .getByRole('heading', { name: 'Orbit', level: 1 })
      .closest('div')!.parentElement!;
    expect(within(header).getByText('No description')).toBeTruthy();
    expect(within(header).getByText('Active')).toBeTruthy();
    expect(await screen.findByRole('tab', { name: 'Users (42)' })).toBeTruthy();
    expect(
      within(screen.getByRole('tablist'))
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual([
      'Overview',
      'Users (42)',
      'Plans',
      'Licences',
      'Variables',
      'Files',
      'API Configuration',
      'Messages',
      'E-mail',
      'Shop',
    ]);

    await user.click(screen.getByRole('tab', { name: 'Messages' }));
    expect(screen.getByRole('textbox', { name: 'Login failed message' })).toHaveProperty(
      'value',
      'Wrong name or password, pilot.',
    );
  });

  it("counts users from the list while the stats are down, and not from a search's page", async () => {
    stubApplicationApi({ isStatsDown: true });
    const user = userEvent.setup();
    renderApplicationPage('/app/7');
    await screen.findByRole('heading', { name: 'Orbit', level: 1 });
    expect((await screen.findByRole('tab', { name: 'Users (3)' })).textContent).toBe('Users (3)');

    await user.click(usersTab());
    expect(await screen.findByText('pilot_2')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search users' }), {
      target: { value: 'pilot_2' },
    });
    await waitFor(() => expect(screen.queryByText('pilot_1')).toBeNull());
    expect(screen.getByText('pilot_2')).toBeTruthy();
    // One user matches; the application still has three, so the tab says no number at all.
    expect(usersTab().textContent).toBe('Users');
  });

  it('lists the plans in their own tab, asking for them only once it is opened', async () => {
    const sent = stubApplicationApi();
    const user = userEvent.setup();
    renderApplicationPage('/app/7');
    await screen.findByRole('heading', { name: 'Orbit', level: 1 });
    expect(sent.some(({ path }) => path === '/api/applications/7/plans')).toBe(false);

    await user.click(screen.getByRole('tab', { name: 'Plans' }));
    expect(await screen.findByRole('heading', { name: 'No plans yet' })).toBeTruthy();
    expect(sent.filter(({ path }) => path === '/api/applications/7/plans')).toHaveLength(1);
  });

  it('shows a Plans column once the application has a plan, or a user holds one', async () => {
    const pro = createPlan(1, { name: 'Pro', durationDays: 30, entitlements: ['PRO'] });
    const user = userEvent.setup();
    stubApplicationApi({ plans: [pro], users: [appUser(1), appUser(2)] });
    const { unmount } = renderApplicationPage('/app/7');
    await user.click(await screen.findByRole('tab', { name: /^Users/ }));
    expect(await screen.findByRole('columnheader', { name: 'Plans' })).toBeTruthy();
    expect(within(screen.getByTestId('user-row-pilot_1')).getByText('None')).toBeTruthy();
    unmount();

    // The plans say none (read before a grant elsewhere): the rows themselves show there is one.
    const holder: AppUserListRow = {
      ...appUser(1),
      subscriptions: [
        {
          id: '50000000-0000-4000-8000-000000000001',
          planId: pro.id,
          planName: 'Pro',
          expiresAt: null,
          entitlements: ['PRO'],
          isActive: true,
          updatesUntil: null,
          updatesPendingDays: null,
        },
      ],
      entitlements: ['PRO'],
    };
    stubApplicationApi({ users: [holder] });
    renderApplicationPage('/app/7');
    await user.click(await screen.findByRole('tab', { name: /^Users/ }));
    const holderRow = await screen.findByTestId('user-row-pilot_1');
    expect(within(holderRow).getByRole('list', { name: 'Plans of pilot_1' }).textContent).toBe(
      'Pro lifetime',
    );
    expect(
      within(holderRow).getByRole('list', { name: 'Entitlements of pilot_1' }).textContent,
    ).toBe('PRO');
  });
});
