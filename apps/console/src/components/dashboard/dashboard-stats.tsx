import type { DashboardStats as DashboardStatsData } from '@latchkey/contracts';
import { Activity, AppWindow, CircleCheck, Users } from 'lucide-react';
import { StatCard } from '@/components/home/stat-card.tsx';

const countFormat = new Intl.NumberFormat('en-US');

/** Spec doc 1 §2: the dashboard's four stat cards. */
export function DashboardStats({
  stats,
  isLoading,
  isError,
}: {
  stats: DashboardStatsData | undefined;
  isLoading: boolean;
  isError: boolean;
}) {
  const format = (count: number | undefined) =>
    count === undefined ? '—' : countFormat.format(count);

  return (
    <section aria-labelledby="dashboard-stats-heading" aria-busy={isLoading}>
      <h2 id="dashboard-stats-heading" className="sr-only">
        Statistics
      </h2>
      {isError && (
        <p role="alert" className="mb-4 text-sm text-destructive">
          Statistics could not be loaded. Please try again later.
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard
          title="Applications"
          value={format(stats?.totalApplications)}
          description="Total created"
          icon={AppWindow}
          isLoading={isLoading}
          testId="stat-applications"
        />
        <StatCard
          title="Total Users"
          value={format(stats?.totalUsers)}
          description="Across all apps"
          icon={Users}
          isLoading={isLoading}
          testId="stat-total-users"
        />
        <StatCard
          title="Active Apps"
          value={format(stats?.activeApplications)}
          description="Currently accepting logins"
          icon={CircleCheck}
          isLoading={isLoading}
          testId="stat-active-apps"
        />
        <StatCard
          title="Active Sessions"
          value={format(stats?.totalActiveSessions)}
          description="Live connections"
          icon={Activity}
          isLoading={isLoading}
          testId="stat-active-sessions"
        />
      </div>
    </section>
  );
}
