import type { Application, AppUser, AppUserListRow } from '@latchkey/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { RefreshButton } from '@/components/ui/refresh-button.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { usePauseAppUser, useResetAppUserHwid, useUnpauseAppUser } from '@/hooks/use-app-users.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { usePlans } from '@/hooks/use-plans.ts';
import type { PagedList } from '@/lib/paged-list.ts';
import { AppUsersList } from './app-users-list.tsx';
import { applicationUsersTable } from './application-users-table.tsx';
import { CreateAppUserDialog } from './create-app-user-dialog.tsx';

/** The management page's Users tab, a page at a time, with a search. */
export function ApplicationUsersPanel({
  application,
  usersQuery,
  search,
  listedSearch,
  onSearchChange,
  onPageChange,
}: {
  application: Application;
  usersQuery: UseQueryResult<PagedList<AppUserListRow>>;
  search: string;
  /** The search the list was asked with (settled after typing). */
  listedSearch: string;
  onSearchChange: (search: string) => void;
  onPageChange: (page: number) => void;
}) {
  const pauseAppUser = usePauseAppUser();
  const unpauseAppUser = useUnpauseAppUser();
  const resetHwid = useResetAppUserHwid();
  const resetting = useDialogTarget<AppUser>();

  const applicationId = application.id;
  const plansQuery = usePlans(applicationId);
  // The Plans column is for applications that sell licences. A row that holds a plan proves
  // there is one while the plans are still loading (or could not be read).
  const hasPlans =
    (plansQuery.data?.length ?? 0) > 0 ||
    (usersQuery.data?.rows.some((user) => user.subscriptions.length > 0) ?? false);
  const busyMutation = [pauseAppUser, unpauseAppUser, resetHwid].find(
    (mutation) => mutation.isPending,
  );

  const addUserButton = (
    <CreateAppUserDialog
      applicationId={applicationId}
      applicationName={application.name}
      variant="application"
    />
  );

  return (
    <>
      <SectionCard
        title="Users"
        description={<>The end users who sign in to {application.name}.</>}
        actions={
          <div className="flex items-center gap-2">
            <RefreshButton
              isRefreshing={usersQuery.isFetching}
              onRefresh={() => void usersQuery.refetch()}
            >
              Refresh
            </RefreshButton>
            {addUserButton}
          </div>
        }
        contentClassName="flex flex-col gap-4"
      >
        <AppUsersList
          application={application}
          usersQuery={usersQuery}
          search={search}
          listedSearch={listedSearch}
          onSearchChange={onSearchChange}
          onPageChange={onPageChange}
          emptyState={{
            title: 'No users found',
            description: 'Add the first user, or let your program register users through the API.',
            action: addUserButton,
          }}
          busyUserId={busyMutation?.variables?.userId ?? null}
          table={(rowActions) =>
            applicationUsersTable({
              ...rowActions,
              isHwidLockEnabled: application.hwidLockEnabled,
              isVerifiedEmailRequired: application.requireVerifiedEmail,
              hasPlans,
              onTogglePause: (user) =>
                (user.isPaused ? unpauseAppUser : pauseAppUser).mutate({
                  applicationId,
                  userId: user.id,
                }),
              onResetHwid: resetting.open,
            })
          }
        />
      </SectionCard>

      <ConfirmTargetDialog
        dialog={resetting}
        title="Reset HWID?"
        description={(user) => (
          <>
            <strong className="font-medium text-foreground">{user.username}</strong> will be able to
            log in from a different device on their next login, which then becomes their bound
            device.
          </>
        )}
        confirmLabel="Reset HWID"
        variant="default"
        onConfirm={(user) => resetHwid.mutate({ applicationId, userId: user.id })}
      />
    </>
  );
}
