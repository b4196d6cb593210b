import type { DashboardStats as DashboardStatsData } from '@latchkey/contracts';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { expectRetryFromAlert, statLoadState } from '@/test/stat-load-state.ts';
import { DashboardStats, STATS_LOAD_ERROR_MESSAGE } from './dashboard-stats.tsx';

const testIds = [
  'stat-applications',
  'stat-total-users',
  'stat-active-apps',
  'stat-active-sessions',
  'stat-unused-keys',
  'stat-used-keys',
];

const stats: DashboardStatsData = {
  totalApplications: 2,
  totalUsers: 1234,
  activeApplications: 1,
  totalActiveSessions: 0,
  unusedLicenses: 10_500,
  usedLicenses: 0,
  totalApiKeys: 2,
  activeApiKeys: 1,
  accountType: 'Premium',
};

describe('DashboardStats: honest figures', () => {
  it('shows failed stats as unknown, with the error and a Retry', async () => {
    const onRetry = vi.fn();
    render(<DashboardStats stats={undefined} {...statLoadState('failed', onRetry)} />);
    for (const testId of testIds) expect(screen.getByTestId(testId).textContent).toBe('—Unknown');
    expect(screen.queryByText('0')).toBeNull();
    await expectRetryFromAlert(STATS_LOAD_ERROR_MESSAGE, onRetry);
  });

  it('does not show figures from before a failed refetch', () => {
    render(<DashboardStats stats={stats} {...statLoadState('retrying')} />);
    expect(screen.getByTestId('stat-total-users').textContent).toBe('—Unknown');
    expect(within(screen.getByRole('alert')).getByRole('button', { name: 'Retry' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('shows loading figures as loading, never as 0', () => {
    render(<DashboardStats stats={undefined} {...statLoadState('loading')} />);
    for (const testId of testIds) expect(screen.queryByTestId(testId)).toBeNull();
    expect(screen.getAllByText('Loading')).toHaveLength(6);
    expect(screen.queryByText('0')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows loaded figures, 0 included', () => {
    render(<DashboardStats stats={stats} {...statLoadState('loaded')} />);
    expect(screen.getByTestId('stat-total-users').textContent).toBe('1,234');
    expect(screen.getByTestId('stat-active-sessions').textContent).toBe('0');
    expect(screen.getByTestId('stat-unused-keys').textContent).toBe('10,500');
    expect(screen.getByTestId('stat-used-keys').textContent).toBe('0');
  });
});
