import type { Application, ApplicationStats } from '@latchkey/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useApplicationStats } from '@/hooks/use-application-stats.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { createApplication } from '@/test/stub-owner-api.ts';
import {
  ApplicationOverview,
  formatSuccessRate,
  NO_REQUESTS_LABEL,
} from './application-overview.tsx';

const application = createApplication({ name: 'Acme Desktop', maxSessionsPerUser: 3 });

const quietStats: ApplicationStats = {
  totalUsers: 0,
  activeUsers: 0,
  activeSessions: 0,
  totalApiRequests: 0,
  loginSuccessRate: 0,
  lastActivity: null,
  unusedLicenses: 0,
  usedLicenses: 0,
};

function OverviewWithStats() {
  const statsQuery = useApplicationStats(application.id);
  return <ApplicationOverview application={application} statsQuery={statsQuery} />;
}

/** Answers GET /api/applications/7/stats from `answers`, one per request, the last repeating. */
function stubStats(answers: (() => Promise<Response>)[]) {
  let calls = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(() => answers[Math.min(calls++, answers.length - 1)]!()),
  );
}

function renderOverview() {
  return renderWithProviders(<OverviewWithStats />, {
    auth: signedInAuth(),
  });
}

const figureTestIds = [
  'stat-live-sessions',
  'stat-api-requests',
  'stat-success-rate',
  'stat-unused-keys',
  'stat-used-keys',
];

describe('ApplicationOverview: honest figures', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows failed stats as unknown, with the error and a Retry that loads them', async () => {
    stubStats([
      async () => Response.json({ message: 'boom', code: 'INTERNAL' }, { status: 500 }),
      async () => Response.json(quietStats),
    ]);
    renderOverview();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch stats: 500');
    for (const testId of figureTestIds) {
      const figure = screen.getByTestId(testId);
      expect(figure.textContent).toBe('—Unknown');
      expect(within(figure).getByText('—').getAttribute('aria-hidden')).toBe('true');
    }
    expect(screen.queryByText('0')).toBeNull();
    expect(screen.queryByText('0%')).toBeNull();
    expect(screen.queryByText('No recent activity')).toBeNull();
    // User Count, Active Users, the five figures and Last Activity.
    expect(screen.getAllByText('Unknown')).toHaveLength(8);

    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('stat-live-sessions').textContent).toBe('0'));
    expect(screen.getByTestId('stat-success-rate').textContent).toBe('—No requests yet');
    expect(screen.getByTestId('stat-unused-keys').textContent).toBe('0');
    expect(screen.getByText('No recent activity')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows loading figures as loading, never as 0 or "No recent activity"', () => {
    stubStats([() => new Promise<Response>(() => {})]);
    renderOverview();

    for (const testId of figureTestIds) {
      expect(screen.getByTestId(testId).textContent).toBe('Loading');
    }
    expect(screen.queryByText('0')).toBeNull();
    expect(screen.queryByText('No recent activity')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('ApplicationOverview: Security Settings', () => {
  afterEach(() => vi.unstubAllGlobals());

  function OverviewOf({ application: shown }: { application: Application }) {
    const statsQuery = useApplicationStats(shown.id);
    return <ApplicationOverview application={shown} statsQuery={statsQuery} />;
  }

  /** The Security Settings card's terms and what each says, in order. */
  function securityItems() {
    const title = screen.getByText('Security Settings');
    const list = title.closest('.gap-4')!.querySelector('dl')!;
    return within(list)
      .getAllByRole('term')
      .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
  }

  it("shows the device limit and whether the portal is on, beside the spec's four items", async () => {
    stubStats([async () => Response.json({ ...quietStats, totalUsers: 12, activeUsers: 9 })]);
    renderWithProviders(
      <OverviewOf application={{ ...application, maxDevices: 3, portalEnabled: true }} />,
      { auth: signedInAuth() },
    );
    await waitFor(() => expect(securityItems()).toContain('User Count: 12'));
    expect(securityItems()).toEqual([
      'Status: Online',
      'HWID Lock: Disabled',
      'Licence Key: Optional',
      'Sessions per User: 3',
      'Devices per User: 3',
      'Portal: On',
      'User Count: 12',
      'Active Users: 9',
    ]);
  });

  it('says Off for a portal that is off, and the default of one device', async () => {
    stubStats([async () => Response.json(quietStats)]);
    renderOverview();
    await waitFor(() => expect(securityItems()).toContain('User Count: 0'));
    expect(securityItems()).toContain('Devices per User: 1');
    expect(securityItems()).toContain('Portal: Off');
  });
});

describe('formatSuccessRate', () => {
  it('has no rate without requests', () => {
    expect(formatSuccessRate({ loginSuccessRate: 0, totalApiRequests: 0 })).toBeNull();
    expect(formatSuccessRate({ loginSuccessRate: Number.NaN, totalApiRequests: 4 })).toBeNull();
  });

  it('shows the percent once there are requests, 0% included', () => {
    expect(formatSuccessRate({ loginSuccessRate: 0, totalApiRequests: 3 })).toBe('0%');
    expect(formatSuccessRate({ loginSuccessRate: 66.7, totalApiRequests: 3 })).toBe('66.7%');
    expect(formatSuccessRate({ loginSuccessRate: 100, totalApiRequests: 1 })).toBe('100%');
  });

  it('shows a rate above 0 even before the request count catches up', () => {
    expect(formatSuccessRate({ loginSuccessRate: 50, totalApiRequests: 0 })).toBe('50%');
  });
});

describe('ApplicationOverview: Success Rate', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads a dash, heard as no requests, when there were no requests', async () => {
    stubStats([async () => Response.json(quietStats)]);
    renderOverview();

    const figure = screen.getByTestId('stat-success-rate');
    await waitFor(() => expect(figure.textContent).toBe(`—${NO_REQUESTS_LABEL}`));
    expect(within(figure).getByText('—').getAttribute('aria-hidden')).toBe('true');
    expect(within(figure).getByText(NO_REQUESTS_LABEL).className).toContain('sr-only');
    expect(screen.queryByText('0%')).toBeNull();
    expect(screen.queryByText(/NaN/)).toBeNull();
  });

  it('reads the percent when there were requests', async () => {
    stubStats([
      async () => Response.json({ ...quietStats, totalApiRequests: 8, loginSuccessRate: 87.5 }),
    ]);
    renderOverview();

    const figure = screen.getByTestId('stat-success-rate');
    await waitFor(() => expect(figure.textContent).toBe('87.5%'));
    expect(within(figure).queryByText('—')).toBeNull();
  });

  it('reads 0% when requests were made and every login failed', async () => {
    stubStats([async () => Response.json({ ...quietStats, totalApiRequests: 2 })]);
    renderOverview();

    await waitFor(() => expect(screen.getByTestId('stat-success-rate').textContent).toBe('0%'));
  });
});
