import type { AppUserListRow } from '@latchkey/contracts';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import type { DataTableDefinition } from '@/components/ui/data-table.tsx';
import { cn } from '@/lib/utils.ts';
import {
  actionsColumn,
  appUsersTable,
  expiresColumn,
  lastLoginColumn,
  plansColumn,
  usernameColumn,
  type AppUserRowHandlers,
} from './app-user-columns.tsx';
import { describeHwidCell, getAppUserStatusBadges } from './app-user-display.ts';
import { AppUserStatusBadge } from './app-user-status-badge.tsx';

function HwidCell({
  user,
  isHwidLockEnabled,
}: {
  user: AppUserListRow;
  isHwidLockEnabled: boolean;
}) {
  const cell = describeHwidCell(user.hwid, isHwidLockEnabled, user);
  if (cell.kind === 'seats') {
    return <span className="text-sm whitespace-nowrap">{cell.text}</span>;
  }
  if (cell.kind === 'empty') {
    return <span className="text-sm whitespace-nowrap text-muted-foreground">{cell.text}</span>;
  }
  return (
    <span className="inline-flex items-center gap-1">
      <code title={cell.hwid} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
        {cell.preview}
      </code>
      <CopyButton value={cell.hwid} label="Copy HWID" />
    </span>
  );
}

/**
 * The management page's users table. With `hasPlans` it also shows what each user holds,
 * before the actions; an application that sells no licences keeps the plain table.
 */
export function applicationUsersTable({
  isHwidLockEnabled,
  hasPlans = false,
  now = new Date(),
  ...handlers
}: AppUserRowHandlers & {
  isHwidLockEnabled: boolean;
  hasPlans?: boolean;
  now?: Date;
}): DataTableDefinition<AppUserListRow> {
  return appUsersTable([
    usernameColumn,
    {
      header: 'Email',
      cellProps: (user) => ({
        className: cn('max-w-56 truncate', !user.email && 'text-muted-foreground italic'),
      }),
      cell: (user) => user.email ?? 'Not provided',
    },
    {
      header: 'Status',
      cell: (user) => (
        <div className="flex flex-wrap items-center gap-1">
          {getAppUserStatusBadges(user, now).map((status) => (
            <AppUserStatusBadge key={status} status={status} />
          ))}
        </div>
      ),
    },
    {
      header: 'HWID',
      cell: (user) => <HwidCell user={user} isHwidLockEnabled={isHwidLockEnabled} />,
    },
    lastLoginColumn,
    expiresColumn(now),
    ...(hasPlans ? [plansColumn] : []),
    actionsColumn(handlers),
  ]);
}
