import type { Application, AppUser, AppUserListRow } from '@latchkey/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import type { ReactNode } from 'react';
import type { DataTableDefinition } from '@/components/ui/data-table.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { useDeleteAppUser } from '@/hooks/use-app-users.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import type { PagedList } from '@/lib/paged-list.ts';
import type { AppUserRowHandlers } from './app-user-columns.tsx';
import { BulkUserActions, selectionColumn } from './bulk-user-actions.tsx';
import { DeleteAppUserDialog } from './delete-app-user-dialog.tsx';
import { EditAppUserDialog } from './edit-app-user-dialog.tsx';
import { useAppUserSelection } from './use-app-user-selection.ts';

/** The row actions the list handles itself, for the table it is given to draw. */
export type AppUsersListRowActions = Pick<AppUserRowHandlers, 'busyUserId' | 'onEdit' | 'onDelete'>;

/**
 * One application's end users as the dashboard and the management page both list them: the
 * search, a page of the table at a time, and the Edit User and delete dialogs its rows open.
 * Each page brings its own table (its columns and its other row actions).
 */
export function AppUsersList({
  application,
  usersQuery,
  search,
  onSearchChange,
  onPageChange,
  emptyState,
  busyUserId,
  listedSearch,
  table,
}: {
  application: Application;
  usersQuery: UseQueryResult<PagedList<AppUserListRow>>;
  search: string;
  onSearchChange: (search: string) => void;
  onPageChange: (page: number) => void;
  /** Shown when the application has no users at all (not when a search matches none). */
  emptyState: { title: string; description: string; action: ReactNode };
  /** The user one of the page's own row actions is changing. */
  busyUserId: string | null;
  /** The search the shown page answers (the settled one): "all matching" means its matches. */
  listedSearch: string;
  table: (rowActions: AppUsersListRowActions) => DataTableDefinition<AppUserListRow>;
}) {
  const applicationId = application.id;
  const deleteAppUser = useDeleteAppUser();
  const editing = useDialogTarget<AppUserListRow>();
  const deleting = useDialogTarget<AppUser>();
  const selection = useAppUserSelection(listedSearch.trim());
  const page = usersQuery.data;
  const rowsTable = table({
    busyUserId: busyUserId ?? (deleteAppUser.isPending ? deleteAppUser.variables.userId : null),
    onEdit: editing.open,
    onDelete: deleting.open,
  });

  return (
    <>
      <BulkUserActions
        applicationId={applicationId}
        selection={selection}
        pageUserIds={page?.rows.map((user) => user.id) ?? []}
        totalCount={page?.totalCount ?? 0}
        isTotalCapped={page?.isTotalCapped ?? false}
      />
      <PagedDataTable
        query={usersQuery}
        search={{ value: search, onChange: onSearchChange }}
        table={{
          ...rowsTable,
          columns: [selectionColumn(selection, page?.rows ?? []), ...rowsTable.columns],
        }}
        loadingLabel="Loading users"
        errorTitle="Error loading users"
        describeError={(error) => error.message}
        empty={<EmptyState icon={Users} {...emptyState} />}
        canShowEmptyState={search.trim() === ''}
        pagerLabel="Users pages"
        onPageChange={onPageChange}
      />
      <EditAppUserDialog application={application} user={editing.target} {...editing.dialogProps} />
      <DeleteAppUserDialog
        user={deleting.target}
        {...deleting.dialogProps}
        onDelete={(user) => deleteAppUser.mutate({ applicationId, userId: user.id })}
      />
    </>
  );
}
