import type { Application, AppUser } from '@latchkey/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { CircleAlert, RefreshCw, UserPlus, Users } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { TableSkeleton } from '@/components/ui/table-skeleton.tsx';
import {
  useDeleteAppUser,
  usePauseAppUser,
  useResetAppUserHwid,
  useUnpauseAppUser,
} from '@/hooks/use-app-users.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { cn } from '@/lib/utils.ts';
import { ApplicationUsersTable } from './application-users-table.tsx';
import { CreateAppUserDialog } from './create-app-user-dialog.tsx';
import { EditAppUserDialog } from './edit-app-user-dialog.tsx';

/** The management page's Users tab (spec doc 1 §2). */
export function ApplicationUsersPanel({
  application,
  usersQuery,
}: {
  application: Application;
  usersQuery: UseQueryResult<AppUser[]>;
}) {
  const { data: users, isPending, isError, error, isFetching, refetch } = usersQuery;
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
      trigger={
        <Button>
          <UserPlus aria-hidden="true" />
          Add User
        </Button>
      }
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
          <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
            <RefreshCw className={cn(isFetching && 'animate-spin')} aria-hidden="true" />
            Refresh
          </Button>
          {addUserButton}
        </div>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <TableSkeleton label="Loading users" />
        ) : isError ? (
          <EmptyState
            icon={CircleAlert}
            tone="destructive"
            title="Error loading users"
            description={error.message}
            action={
              <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
                <RefreshCw className={cn(isFetching && 'animate-spin')} aria-hidden="true" />
                Try Again
              </Button>
            }
          />
        ) : users.length === 0 ? (
          <EmptyState
            icon={Users}
            title="No users found"
            description="Add the first user, or let your program register users through the API."
            action={addUserButton}
          />
        ) : (
          <ApplicationUsersTable
            users={users}
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
      <ConfirmDialog
        open={deleting.isOpen}
        onOpenChange={deleting.setIsOpen}
        title="Delete user?"
        description={
          <>
            <strong className="font-medium text-foreground">{deleting.target?.username}</strong>{' '}
            will be permanently deleted. This action cannot be undone.
          </>
        }
        confirmLabel="Delete User"
        onConfirm={() =>
          deleting.target && deleteAppUser.mutate({ applicationId, userId: deleting.target.id })
        }
      />
    </Card>
  );
}
