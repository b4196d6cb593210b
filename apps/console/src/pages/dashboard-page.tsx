import type { Application } from '@latchkey/contracts';
import { AppWindow, Crown, Users } from 'lucide-react';
import { lazy, memo, Suspense, useState } from 'react';
import { ActivityChartCard } from '@/components/activity-charts/activity-chart-card.tsx';
import { ApplicationsTab } from '@/components/dashboard/applications-tab.tsx';
import { DashboardNavigation } from '@/components/dashboard/dashboard-navigation.tsx';
import { DashboardSales } from '@/components/dashboard/dashboard-sales.tsx';
import { DashboardStats } from '@/components/dashboard/dashboard-stats.tsx';
import { DEFAULT_ACCOUNT_TYPE } from '@/components/home/home-stats.tsx';
import { SiteFooter } from '@/components/layout/site-footer.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { toStatLoadState } from '@/components/ui/stat-grid.tsx';
import { TableSkeleton } from '@/components/ui/table-skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { useApplications } from '@/hooks/use-applications.ts';
import { useAuth } from '@/hooks/use-auth.ts';
import { useDashboardStats } from '@/hooks/use-dashboard-stats.ts';
import { useShopSales } from '@/hooks/use-shop-sales.ts';
import { selectedOrOnlyApplication } from '@/lib/selected-or-only-application.ts';

type DashboardTab = 'applications' | 'users';

// The Users tab shows only once an application is selected: its code (the users table, the Edit
// User dialog, bulk actions) loads then, or when the tab is pointed at, not with the first screen.
const loadUsersTab = () => import('@/components/dashboard/users-tab.tsx');
const UsersTab = lazy(() => loadUsersTab().then((module) => ({ default: module.UsersTab })));
const preloadUsersTab = () => void loadUsersTab().catch(() => {});

/**
 * The page itself subscribes to no query: each part below owns the query it shows, so an
 * answer re-renders that part alone. React renders a query's answer synchronously (the store
 * it reads is external), so a page that held every query re-rendered whole, in one long task,
 * as each of its four answers came in. The parts are memoised for the same reason: the page
 * re-renders when the signed-in profile changes (Firebase restoring its user after the first
 * screen), and that need not redraw the figures, the chart or the tables.
 */
export function DashboardPage() {
  const { user } = useAuth();
  const name = user?.firstName || user?.email || '';

  return (
    <div className="flex min-h-screen flex-col bg-background">
      <DashboardNavigation />
      <main className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-8 px-4 py-10 sm:px-6 lg:px-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="flex flex-col gap-1">
            <h1 className="text-3xl font-bold tracking-tight">Dashboard</h1>
            <p className="text-muted-foreground">
              Welcome back{name ? `, ${name}` : ''}. Manage your applications, API keys and users.
            </p>
          </div>
          <AccountTypeBadge />
        </div>
        <StatsSection />
        <ChartSection />
        <SalesSection />
        <DashboardTabs />
      </main>
      <SiteFooter />
    </div>
  );
}

const AccountTypeBadge = memo(function AccountTypeBadge() {
  const statsQuery = useDashboardStats();
  return (
    <Badge
      data-testid="account-type"
      className="gap-1.5 bg-gradient-to-r from-primary to-violet-600 px-3 py-1 text-sm text-white"
    >
      <Crown aria-hidden="true" className="size-3.5!" />
      {statsQuery.data?.accountType || DEFAULT_ACCOUNT_TYPE}
    </Badge>
  );
});

const StatsSection = memo(function StatsSection() {
  const statsQuery = useDashboardStats();
  return <DashboardStats stats={statsQuery.data} {...toStatLoadState(statsQuery)} />;
});

const ChartSection = memo(function ChartSection() {
  return <ActivityChartCard applicationId={null} title="Activity across your applications" />;
});

const SalesSection = memo(function SalesSection() {
  return <DashboardSales query={useShopSales()} />;
});

/** The Applications and Users tabs, with the application the Users tab shows. */
const DashboardTabs = memo(function DashboardTabs() {
  const applicationsQuery = useApplications();
  const [activeTab, setActiveTab] = useState<DashboardTab>('applications');
  const [selectedApplicationId, setSelectedApplicationId] = useState<number | null>(null);

  // Derived from the list, so the tab label and users table follow edits, and an application
  // deleted elsewhere stops being selected. An account with one application has it selected.
  const selectedApplication = selectedOrOnlyApplication(
    applicationsQuery.data,
    selectedApplicationId,
  );

  const selectApplication = (application: Application) => {
    preloadUsersTab();
    setSelectedApplicationId(application.id);
  };
  const showUsers = (application: Application) => {
    selectApplication(application);
    setActiveTab('users');
  };

  return (
    <Tabs
      value={activeTab}
      onValueChange={(value) => setActiveTab(value as DashboardTab)}
      className="flex flex-col gap-4"
    >
      <TabsList>
        <TabsTrigger value="applications">
          <AppWindow aria-hidden="true" />
          Applications
        </TabsTrigger>
        {/* Usable only once an application is selected, and named after it. */}
        <TabsTrigger
          value="users"
          disabled={!selectedApplication}
          className="max-w-72"
          onPointerEnter={preloadUsersTab}
          onFocus={preloadUsersTab}
        >
          <Users aria-hidden="true" />
          <span className="truncate">
            {selectedApplication ? `Users (${selectedApplication.name})` : 'Users'}
          </span>
        </TabsTrigger>
      </TabsList>
      <TabsContent value="applications">
        <ApplicationsTab
          applicationsQuery={applicationsQuery}
          selectedApplicationId={selectedApplication?.id ?? null}
          onSelect={selectApplication}
          onShowUsers={showUsers}
          onDeleted={(applicationId) =>
            setSelectedApplicationId((current) => (current === applicationId ? null : current))
          }
        />
      </TabsContent>
      <TabsContent value="users">
        <Suspense fallback={<TableSkeleton label="Loading users" />}>
          <UsersTab
            application={selectedApplication}
            onGoToApplications={() => setActiveTab('applications')}
          />
        </Suspense>
      </TabsContent>
    </Tabs>
  );
});
