import { pagingLimits, type Application, type AppUser } from '@latchkey/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedQueryView } from '@/components/ui/paged-query-view.tsx';
import { RefreshButton } from '@/components/ui/refresh-button.tsx';
import { SearchInput } from '@/components/ui/search-input.tsx';
import {
  useDeleteAppUser,
  usePauseAppUser,
  useResetAppUserHwid,
  useUnpauseAppUser,
} from '@/hooks/use-app-users.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import type { PagedList } from '@/lib/paged-list.ts';
import { ApplicationUsersTable } from './application-users-table.tsx';
import { CreateAppUserDialog } from './create-app-user-dialog.tsx';
import { DeleteAppUserDialog } from './delete-app-user-dialog.tsx';
import { EditAppUserDialog } from './edit-app-user-dialog.tsx';

/** The management page's Users tab (spec doc 1 §2), a page at a time, with a search. */
export function ApplicationUsersPanel({
  application,
  usersQuery,
  search,
  onSearchChange,
  onPageChange,
}: {
  application: Application;
  usersQuery: UseQueryResult<PagedList<AppUser>>;
  search: string;
  onSearchChange: (search: string) => void;
  onPageChange: (page: number) => void;
}) {
  const pauseAppUser = usePauseAppUser();
  const unpauseAppUser = useUnpauseAppUser();
  const resetHwid = useResetAppUserHwid();
  const deleteAppUser = useDeleteAppUser();
  const editing = useDialogTarget<AppUser>();
  const resetting = useDialogTarget<AppUser>();
  const deleting = useDialogTarget<AppUser>();

  const applicationId = application.id;
  const busyMutation = [pauseAppUser, unpauseAppUser, resetHwid, deleteAppUser].find(
    (mutation) => mutation.isPending,
  );
  const busyUserId = busyMutation?.variables?.userId ?? null;

  const addUserButton = (
    <CreateAppUserDialog
      applicationId={applicationId}
      applicationName={application.name}
      variant="application"
    />
  );

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle>Users</CardTitle>
          <CardDescription>The end users who sign in to {application.name}.</CardDescription>
        </div>
        <div className="flex items-center gap-2">
          <RefreshButton
            isRefreshing={usersQuery.isFetching}
            onRefresh={() => void usersQuery.refetch()}
          >
            Refresh
          </RefreshButton>
          {addUserButton}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <SearchInput
          value={search}
          onChange={onSearchChange}
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
              title="No users found"
              description="Add the first user, or let your program register users through the API."
              action={addUserButton}
            />
          }
          canShowEmptyState={search.trim() === ''}
          pagerLabel="Users pages"
          onPageChange={onPageChange}
        >
          {(rows) => (
            <ApplicationUsersTable
              users={rows}
              isHwidLockEnabled={application.hwidLockEnabled}
              busyUserId={busyUserId}
              onEdit={editing.open}
              onTogglePause={(user) =>
                (user.isPaused ? unpauseAppUser : pauseAppUser).mutate({
                  applicationId,
                  userId: user.id,
                })
              }
              onResetHwid={resetting.open}
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
      <ConfirmDialog
        open={resetting.isOpen}
        onOpenChange={resetting.setIsOpen}
        title="Reset HWID?"
        description={
          <>
            <strong className="font-medium text-foreground">{resetting.target?.username}</strong>{' '}
            will be able to log in from a different device on their next login, which then becomes
            their bound device.
          </>
        }
        confirmLabel="Reset HWID"
        variant="default"
        onConfirm={() =>
          resetting.target && resetHwid.mutate({ applicationId, userId: resetting.target.id })
        }
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
