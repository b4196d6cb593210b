import { pagingLimits, type Application, type AppUser } from '@latchkey/contracts';
import { useState } from 'react';
import { MousePointerClick, Users } from 'lucide-react';
import { CreateAppUserDialog } from '@/components/app-users/create-app-user-dialog.tsx';
import { DeleteAppUserDialog } from '@/components/app-users/delete-app-user-dialog.tsx';
import { DashboardUsersTable } from '@/components/app-users/dashboard-users-table.tsx';
import { EditAppUserDialog } from '@/components/app-users/edit-app-user-dialog.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedQueryView } from '@/components/ui/paged-query-view.tsx';
import { SearchInput } from '@/components/ui/search-input.tsx';
import { useAppUsers, useDeleteAppUser, useSetAppUserPaused } from '@/hooks/use-app-users.ts';
import { useDebouncedValue } from '@/hooks/use-debounced-value.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';

/** Spec doc 1 §2: the dashboard's Users tab, for the selected application. */
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
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search);
  const usersQuery = useAppUsers(applicationId, { page, search: settledSearch });
  const setPaused = useSetAppUserPaused();
  const deleteAppUser = useDeleteAppUser();
  const editing = useDialogTarget<AppUser>();
  const deleting = useDialogTarget<AppUser>();
  const busyUserId =
    (setPaused.isPending && setPaused.variables.userId) ||
    (deleteAppUser.isPending && deleteAppUser.variables.userId) ||
    null;

  const addUserButton = (
    <CreateAppUserDialog
      applicationId={applicationId}
      applicationName={application.name}
      variant="dashboard"
    />
  );

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle>Users of {application.name}</CardTitle>
          <CardDescription>
            HWID lock is {application.hwidLockEnabled ? 'on' : 'off'} for this application.
          </CardDescription>
        </div>
        {addUserButton}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <SearchInput
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage(1);
          }}
          label="Search users"
          placeholder="Search by username or email"
          maxLength={pagingLimits.search}
        />
        <PagedQueryView
          query={usersQuery}
          loadingLabel="Loading users"
          errorTitle="Error loading users"
          describeError={(error) => error.message}
          empty={
            <EmptyState
              icon={Users}
              title="No Users"
              description="This application has no users yet."
              action={addUserButton}
            />
          }
          canShowEmptyState={search.trim() === ''}
          pagerLabel="Users pages"
          onPageChange={setPage}
        >
          {(rows) => (
            <DashboardUsersTable
              users={rows}
              isHwidLockEnabled={application.hwidLockEnabled}
              busyUserId={busyUserId}
              onEdit={editing.open}
              onTogglePause={(user) =>
                setPaused.mutate({ applicationId, userId: user.id, isPaused: !user.isPaused })
              }
              onDelete={deleting.open}
            />
          )}
        </PagedQueryView>
      </CardContent>

      <EditAppUserDialog
        applicationId={applicationId}
        user={editing.target}
        open={editing.isOpen}
        onOpenChange={editing.setIsOpen}
      />
      <DeleteAppUserDialog
        user={deleting.target}
        open={deleting.isOpen}
        onOpenChange={deleting.setIsOpen}
        onDelete={(user) => deleteAppUser.mutate({ applicationId, userId: user.id })}
      />
    </Card>
  );
}
