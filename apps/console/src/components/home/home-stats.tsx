import { Crown, KeyRound, ShieldCheck, Users } from 'lucide-react';
import { useDashboardStats } from '@/hooks/use-dashboard-stats.ts';
import { StatCard } from './stat-card.tsx';

/** Spec doc 1 §2/§9: the account type shows "Premium" unless the server says otherwise. */
export const DEFAULT_ACCOUNT_TYPE = 'Premium';

const numberFormat = new Intl.NumberFormat('en-US');

export function HomeStats() {
  const { data: stats, isPending, isError } = useDashboardStats();
  const formatCount = (count: number | undefined) =>
    count === undefined ? '—' : numberFormat.format(count);

  return (
    <section aria-labelledby="stats-heading" aria-busy={isPending}>
      <h2 id="stats-heading" className="sr-only">
        Statistics
      </h2>
      {isError && (
        <p role="alert" className="mb-4 text-sm text-destructive">
          Statistics could not be loaded. Please try again later.
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard
          title="Total Users"
          value={formatCount(stats?.totalUsers)}
          description="Across all applications"
          icon={Users}
          isLoading={isPending}
          testId="stat-total-users"
        />
        <StatCard
          title="API Keys"
          value={formatCount(stats?.totalApiKeys)}
          description="total generated"
          icon={KeyRound}
          isLoading={isPending}
          testId="stat-api-keys"
        />
        <StatCard
          title="Active Keys"
          value={formatCount(stats?.activeApiKeys)}
          description="Currently in use"
          icon={ShieldCheck}
          isLoading={isPending}
          testId="stat-active-keys"
        />
        <StatCard
          title="Account Type"
          value={stats?.accountType || DEFAULT_ACCOUNT_TYPE}
          description="Your account level"
          icon={Crown}
          isLoading={isPending}
          testId="stat-account-type"
        />
      </div>
    </section>
  );
}
