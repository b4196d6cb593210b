import { applicationIdSchema, type Application } from '@latchkey/contracts';
import { ArrowLeft, CircleAlert, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'wouter';
import { ActivityChartCard } from '@/components/activity-charts/activity-chart-card.tsx';
import { ApplicationApiConfiguration } from '@/components/applications/application-api-configuration.tsx';
import { ApplicationMessages } from '@/components/applications/application-messages.tsx';
import { ApplicationOverview } from '@/components/applications/application-overview.tsx';
import { ApplicationSettingsDialog } from '@/components/applications/application-settings-dialog.tsx';
import { ApplicationStatusBadge } from '@/components/applications/application-status-badge.tsx';
import { ApplicationUsersPanel } from '@/components/app-users/application-users-panel.tsx';
import { FilesPanel } from '@/components/files/files-panel.tsx';
import { MailPanel } from '@/components/mail/mail-panel.tsx';
import { ImportDialog } from '@/components/imports/import-dialog.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';
import { LicensesPanel } from '@/components/licenses/licenses-panel.tsx';
import { PlansPanel } from '@/components/plans/plans-panel.tsx';
import { ShopPanel } from '@/components/shops/shop-panel.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { VariablesPanel } from '@/components/variables/variables-panel.tsx';
import { useApplicationStats } from '@/hooks/use-application-stats.ts';
import { useAppUsers } from '@/hooks/use-app-users.ts';
import { useApplications } from '@/hooks/use-applications.ts';
import { useAuth } from '@/hooks/use-auth.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { usePagedSearch } from '@/hooks/use-paged-search.ts';
import { canManageApplications } from '@/lib/can-manage-applications.ts';

export const APPLICATION_NOT_FOUND_MESSAGE =
  'This application does not exist, or it belongs to another account.';

function BackToDashboardButton() {
  return (
    <Button asChild variant="outline">
      <Link href="/dashboard">
        <ArrowLeft aria-hidden="true" />
        Back to Dashboard
      </Link>
    </Button>
  );
}

function StatusMessage({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <Card className="mx-auto mt-8 w-full max-w-md">
      <CardContent className="flex flex-col items-center gap-4 text-center">
        {icon}
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {children}
      </CardContent>
    </Card>
  );
}

/** /app/:id, the management page of one application. */
export function ApplicationPage() {
  const { id } = useParams<{ id: string }>();
  const parsedId = applicationIdSchema.safeParse(id ?? '');

  return (
    <SignedInLayout>
      {parsedId.success ? (
        // Keyed: moving to another application starts from its own state (tab, dialogs).
        <ApplicationManagement key={parsedId.data} applicationId={parsedId.data} />
      ) : (
        <StatusMessage
          icon={<CircleAlert className="size-10 text-destructive" aria-hidden="true" />}
          title="Invalid application ID"
        >
          <BackToDashboardButton />
        </StatusMessage>
      )}
    </SignedInLayout>
  );
}

function ApplicationManagement({ applicationId }: { applicationId: number }) {
  // There is no single-application read: the page looks in the owner's own list, which is
  // also what makes another owner's application "not found" rather than forbidden. The list
  // is re-read on arrival, so one created in another tab is not reported missing.
  const applicationsQuery = useApplications({ isRefreshedOnMount: true });
  const application =
    applicationsQuery.data?.find((candidate) => candidate.id === applicationId) ?? null;

  const knownId = application ? applicationId : null;
  // Read here, not in the Users tab: the tab label counts from this list while it is not searching.
  const usersList = usePagedSearch();
  const settledSearch = usersList.settledSearch;
  const usersQuery = useAppUsers(knownId, {
    refetchOnWindowFocus: true,
    page: usersList.page,
    search: settledSearch,
  });
  const statsQuery = useApplicationStats(knownId);

  if (applicationsQuery.isPending || (!application && applicationsQuery.isFetching)) {
    return (
      <div role="status" className="flex min-h-[50vh] flex-col items-center justify-center gap-3">
        <Spinner className="size-8 text-primary" />
        <p className="text-sm font-medium text-muted-foreground">Loading application...</p>
      </div>
    );
  }

  if (!application) {
    const message = applicationsQuery.error
      ? getErrorToastMessage(applicationsQuery.error, applicationsQuery.error.message)
      : APPLICATION_NOT_FOUND_MESSAGE;
    return (
      <StatusMessage
        icon={<SearchX className="size-10 text-muted-foreground" aria-hidden="true" />}
        title="Application Not Found"
      >
        <p className="text-sm text-muted-foreground">{message}</p>
        <BackToDashboardButton />
      </StatusMessage>
    );
  }

  // The list is one page (and maybe a search): the count comes from the stats, or else
  // from the list's total while it is not searching.
  const userCount =
    statsQuery.data?.totalUsers ?? (settledSearch ? undefined : usersQuery.data?.totalCount);

  return (
    <div className="flex flex-col gap-8">
      <ApplicationHeader application={application} />
      <Tabs defaultValue="overview" className="flex flex-col gap-4">
        <TabsList>
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="users">
            Users{userCount === undefined ? '' : ` (${userCount})`}
          </TabsTrigger>
          <TabsTrigger value="plans">Plans</TabsTrigger>
          <TabsTrigger value="licenses">Licences</TabsTrigger>
          <TabsTrigger value="variables">Variables</TabsTrigger>
          <TabsTrigger value="files">Files</TabsTrigger>
          <TabsTrigger value="api">API Configuration</TabsTrigger>
          <TabsTrigger value="messages">Messages</TabsTrigger>
          <TabsTrigger value="mail">E-mail</TabsTrigger>
          <TabsTrigger value="shop">Shop</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          <div className="flex flex-col gap-6">
            <ApplicationOverview application={application} statsQuery={statsQuery} />
            <ActivityChartCard applicationId={application.id} />
          </div>
        </TabsContent>
        <TabsContent value="users">
          <ApplicationUsersPanel
            application={application}
            usersQuery={usersQuery}
            search={usersList.search}
            listedSearch={settledSearch}
            onSearchChange={usersList.setSearch}
            onPageChange={usersList.setPage}
          />
        </TabsContent>
        <TabsContent value="plans">
          <PlansPanel application={application} />
        </TabsContent>
        <TabsContent value="licenses">
          <LicensesPanel application={application} />
        </TabsContent>
        <TabsContent value="variables">
          <VariablesPanel application={application} />
        </TabsContent>
        <TabsContent value="files">
          <FilesPanel application={application} />
        </TabsContent>
        <TabsContent value="api">
          <ApplicationApiConfiguration application={application} />
        </TabsContent>
        <TabsContent value="messages">
          <ApplicationMessages application={application} />
        </TabsContent>
        <TabsContent value="mail">
          <MailPanel application={application} />
        </TabsContent>
        <TabsContent value="shop">
          <ShopPanel application={application} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function ApplicationHeader({ application }: { application: Application }) {
  // An import writes users and keys: offered only to who may (the server refuses the rest).
  const canImport = canManageApplications(useAuth().user);
  return (
    <div className="flex flex-col gap-4">
      <Link
        href="/dashboard"
        className="inline-flex w-fit items-center gap-1.5 rounded-md text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Dashboard
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-2">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="truncate text-3xl font-bold tracking-tight">{application.name}</h1>
            <ApplicationStatusBadge isActive={application.isActive} />
          </div>
          <p className="max-w-3xl text-muted-foreground">
            {application.description || 'No description'}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {canImport && <ImportDialog application={application} />}
          <ApplicationSettingsDialog application={application} />
        </div>
      </div>
    </div>
  );
}
