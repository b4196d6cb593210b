import type { Application } from '@latchkey/contracts';
import { MousePointerClick } from 'lucide-react';
import { AppUsersList } from '@/components/app-users/app-users-list.tsx';
import { CreateAppUserDialog } from '@/components/app-users/create-app-user-dialog.tsx';
import { dashboardUsersTable } from '@/components/app-users/dashboard-users-table.tsx';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useAppUsers, useSetAppUserPaused } from '@/hooks/use-app-users.ts';
import { usePagedSearch } from '@/hooks/use-paged-search.ts';

/** The dashboard's Users tab, for the selected application. */
export function UsersTab({
  application,
  onGoToApplications,
}: {
  application: Application | null;
  onGoToApplications: () => void;
}) {
  if (!application) {
    return (
      <EmptyState
        icon={MousePointerClick}
        title="Select an Application"
        description="Choose an application on the Applications tab to see and manage its users."
        action={
          <Button variant="outline" onClick={onGoToApplications}>
            Go to Applications
          </Button>
        }
      />
    );
  }
  return <SelectedApplicationUsers key={application.id} application={application} />;
}

function SelectedApplicationUsers({ application }: { application: Application }) {
  const applicationId = application.id;
  const { page, setPage, search, setSearch, settledSearch } = usePagedSearch();
  const usersQuery = useAppUsers(applicationId, { page, search: settledSearch });
  const setPaused = useSetAppUserPaused();

  const addUserButton = (
    <CreateAppUserDialog
      applicationId={applicationId}
      applicationName={application.name}
      variant="dashboard"
    />
  );

  return (
    <SectionCard
      title={<>Users of {application.name}</>}
      description={
        <>HWID lock is {application.hwidLockEnabled ? 'on' : 'off'} for this application.</>
      }
      actions={addUserButton}
      contentClassName="flex flex-col gap-4"
    >
      <AppUsersList
        application={application}
        usersQuery={usersQuery}
        search={search}
        listedSearch={settledSearch}
        onSearchChange={setSearch}
        onPageChange={setPage}
        emptyState={{
          title: 'No Users',
          description: 'This application has no users yet.',
          action: addUserButton,
        }}
        busyUserId={setPaused.isPending ? setPaused.variables.userId : null}
        table={(rowActions) =>
          dashboardUsersTable({
            ...rowActions,
            isHwidLockEnabled: application.hwidLockEnabled,
            onTogglePause: (user) =>
              setPaused.mutate({ applicationId, userId: user.id, isPaused: !user.isPaused }),
          })
        }
      />
    </SectionCard>
  );
}
