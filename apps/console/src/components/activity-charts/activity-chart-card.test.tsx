import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import {
  createActivityChart,
  jsonResponse,
  neverAnswered,
  stubOwnerApi,
  type OwnerApiRoute,
} from '@/test/stub-owner-api.ts';
import { ActivityChartCard } from './activity-chart-card.tsx';

// jsdom has no canvas: the plot stands in with what it was given to draw.
vi.mock('./activity-chart-plot.tsx', () => ({
  default: ({
    chart,
    visibleSeries,
  }: {
    chart: { points: unknown[] };
    visibleSeries: ReadonlySet<string>;
  }) => (
    <div data-testid="activity-chart-plot">
      {chart.points.length} points: {[...visibleSeries].join(',')}
    </div>
  ),
}));

const busyHour = { logins: 12, failedLogins: 3, registrations: 2, newSessions: 9, liveSessions: 5 };

function stubChartApi(route: OwnerApiRoute = () => undefined) {
  return stubOwnerApi((request) => {
    const answer = route(request);
    if (answer) return answer;
    const range = (request.url.searchParams.get('range') ?? '24h') as '24h' | '7d' | '30d';
    return jsonResponse(200, createActivityChart(range, { 0: busyHour, 3: { logins: 1 } }));
  });
}

describe('ActivityChartCard', () => {
  beforeEach(() => {
    vi.unstubAllGlobals();
  });

  it('loads one application’s chart, switches range, and reads under the activity-chart key', async () => {
    const sent = stubChartApi();
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(<ActivityChartCard applicationId={7} />);
    expect(await screen.findByTestId('activity-chart-plot')).toHaveProperty(
      'textContent',
      '24 points: logins,failedLogins,registrations,newSessions,liveSessions',
    );
    expect(sent.map((request) => request.path)).toEqual([
      '/api/applications/7/activity-chart?range=24h',
    ]);
    expect(screen.getByText('Per hour over the last 24 hours (UTC).')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: '7 days' }));
    expect(screen.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(screen.getByRole('button', { name: '24 hours' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    await waitFor(() =>
      expect(screen.getByTestId('activity-chart-plot').textContent).toMatch(/^7 points/),
    );
    expect(sent.at(-1)?.path).toBe('/api/applications/7/activity-chart?range=7d');

    // The live stream invalidates the prefix: the chart on screen is read again.
    const before = sent.length;
    await queryClient.invalidateQueries({ queryKey: ['activity-chart'] });
    await waitFor(() => expect(sent.length).toBe(before + 1));
  });

  it('asks for every application on the dashboard, and hides and shows series from the legend', async () => {
    const sent = stubChartApi();
    const user = userEvent.setup();
    renderWithProviders(<ActivityChartCard applicationId={null} title="All activity" />);
    await screen.findByTestId('activity-chart-plot');
    expect(sent[0]?.path).toBe('/api/dashboard/activity-chart?range=24h');

    const series = screen.getByRole('group', { name: 'Series' });
    const failed = within(series).getByRole('button', { name: 'Failed logins' });
    await user.click(failed);
    expect(failed.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByTestId('activity-chart-plot').textContent).toBe(
      '24 points: logins,registrations,newSessions,liveSessions',
    );
    await user.click(failed);
    expect(failed.getAttribute('aria-pressed')).toBe('true');
  });

  it('shows the figures as a real table on request', async () => {
    stubChartApi();
    const user = userEvent.setup();
    renderWithProviders(<ActivityChartCard applicationId={7} />);
    await screen.findByTestId('activity-chart-plot');
    await user.click(screen.getByRole('button', { name: 'Show as table' }));

    const table = screen.getByRole('table');
    expect(screen.queryByTestId('activity-chart-plot')).toBeNull();
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual([
      'Hour (UTC)',
      'Logins',
      'Failed logins',
      'Registrations',
      'New sessions',
      'Live sessions',
    ]);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(25);
    expect(
      within(rows.at(-1)!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['10 Jun, 12:00', '12', '3', '2', '9', '5']);
    expect(table.querySelector('caption')?.textContent).toBe(
      'Activity: Per hour over the last 24 hours (UTC).',
    );

    await user.click(screen.getByRole('button', { name: 'Show as chart' }));
    expect(await screen.findByTestId('activity-chart-plot')).toBeTruthy();
  });

  it('shows a skeleton while loading, an empty state when nothing happened', async () => {
    let isAnswered = false;
    stubOwnerApi(() =>
      isAnswered ? jsonResponse(200, createActivityChart('24h')) : neverAnswered(),
    );
    const { queryClient } = renderWithProviders(<ActivityChartCard applicationId={7} />);
    expect(screen.getByTestId('activity-chart-skeleton')).toBeTruthy();
    isAnswered = true;
    await queryClient.resetQueries({ queryKey: ['activity-chart'] });
    expect(await screen.findByRole('heading', { name: 'No activity yet' })).toBeTruthy();
    expect(screen.queryByTestId('activity-chart-plot')).toBeNull();
  });

  it('shows the server’s reason when the chart cannot be loaded, and Try Again loads it', async () => {
    let isDown = true;
    stubChartApi(() =>
      isDown ? jsonResponse(500, { message: 'Buckets unavailable', code: 'INTERNAL' }) : undefined,
    );
    const user = userEvent.setup();
    renderWithProviders(<ActivityChartCard applicationId={7} />);
    expect(await screen.findByRole('heading', { name: 'Could not load activity' })).toBeTruthy();
    expect(screen.getByText('Buckets unavailable')).toBeTruthy();
    isDown = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId('activity-chart-plot')).toBeTruthy();
  });
});
