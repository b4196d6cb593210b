import type { AppUser, AppUserListRow } from '@latchkey/contracts';
import { formatDateTime } from '@/components/applications/application-display.ts';
import {
  rowActionsColumn,
  type DataTableColumn,
  type DataTableDefinition,
} from '@/components/ui/data-table.tsx';
import { cn } from '@/lib/utils.ts';
import { getAppUserStatus } from './app-user-display.ts';
import { AppUserRowActions } from './app-user-row-actions.tsx';
import { UserPlansCell } from './user-plans-cell.tsx';

/** What a users table's row actions do, and which user they are waiting for. */
export interface AppUserRowHandlers {
  /** The user a row action is currently changing; its buttons wait for it. */
  busyUserId: string | null;
  /** Given the row, which also carries what the Edit User dialog shows (the device limit). */
  onEdit: (user: AppUserListRow) => void;
  onTogglePause: (user: AppUser) => void;
  /** Given where a user's HWID can be reset: adds a "Reset HWID" button for users with one. */
  onResetHwid?: (user: AppUser) => void;
  onDelete: (user: AppUser) => void;
}

/**
 * A table of end users (the dashboard's and the management page's), from its columns. Rows are
 * found by username, which is unique within an application. Rows are the list's, which carry
 * what each user holds; a column that needs only the user is typed on AppUser.
 */
export function appUsersTable(
  columns: DataTableColumn<AppUserListRow>[],
): DataTableDefinition<AppUserListRow> {
  return {
    label: 'Users',
    searchBox: { label: 'Search users', placeholder: 'Search by username or email' },
    getRowKey: (user) => user.id,
    getRowProps: (user) => ({ 'data-testid': `user-row-${user.username}` }),
    columns,
  };
}

export const usernameColumn: DataTableColumn<AppUser> = {
  header: 'Username',
  // In full, wrapped: two long usernames alike but for their ends stay apart.
  cellClassName: 'max-w-48 min-w-32 font-medium wrap-anywhere',
  cell: (user) => user.username,
};

export const lastLoginColumn: DataTableColumn<AppUser> = {
  header: 'Last Login',
  cellClassName: 'whitespace-nowrap text-muted-foreground',
  cell: (user) => (user.lastLogin ? formatDateTime(user.lastLogin) : 'Never'),
};

/** The expiry, red once it has passed (as of `now`, one instant per table). */
export function expiresColumn(now: Date): DataTableColumn<AppUser> {
  return {
    header: 'Expires',
    cellProps: (user) => {
      const hasExpired = getAppUserStatus(user, now) === 'Expired';
      return {
        'data-expired': hasExpired || undefined,
        className: cn(
          'whitespace-nowrap',
          hasExpired ? 'font-medium text-destructive' : 'text-muted-foreground',
        ),
      };
    },
    cell: (user) => (user.expiresAt ? formatDateTime(user.expiresAt) : 'Never'),
  };
}

/** Each user's subscriptions and entitlements. */
export const plansColumn: DataTableColumn<AppUserListRow> = {
  header: 'Plans',
  cellProps: () => ({ 'data-testid': 'user-plans' }),
  cell: (user) => <UserPlansCell user={user} />,
};

export function actionsColumn({
  busyUserId,
  ...handlers
}: AppUserRowHandlers): DataTableColumn<AppUserListRow> {
  return rowActionsColumn(
    (user) => <AppUserRowActions user={user} isBusy={user.id === busyUserId} {...handlers} />,
    // The Actions column keeps its header; the buttons line themselves up at the right.
    { isHeaderShown: true, cellClassName: '' },
  );
}
