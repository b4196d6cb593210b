import type { AppUserListRow } from '@latchkey/contracts';
import { CircleAlert } from 'lucide-react';
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
import { describeHwidCell, getAppUserStatus } from './app-user-display.ts';
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
 * An address, marked when it is not verified and the application refuses such addresses (the
 * user cannot log in yet). Only then: where nothing depends on it, every address would be
 * marked. The mark is an icon before the address, so the capped, truncated cell keeps its
 * width and a long address never hides it.
 */
function EmailCell({ email, isMarkedUnverified }: { email: string; isMarkedUnverified: boolean }) {
  if (!isMarkedUnverified) return email;
  return (
    <>
      <span title="Not verified">
        <CircleAlert
          className="mr-1 inline size-3.5 align-[-0.125em] text-warning"
          aria-hidden="true"
        />
        <span className="sr-only">Not verified: </span>
      </span>
      {email}
    </>
  );
}

/**
 * The management page's users table. With `hasPlans` it also shows what each user holds,
 * before the actions; an application that sells no licences keeps the plain table. With
 * `isVerifiedEmailRequired` an address the user has not confirmed is marked.
 */
export function applicationUsersTable({
  isHwidLockEnabled,
  isVerifiedEmailRequired = false,
  hasPlans = false,
  now = new Date(),
  ...handlers
}: AppUserRowHandlers & {
  isHwidLockEnabled: boolean;
  isVerifiedEmailRequired?: boolean;
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
      cell: (user) =>
        user.email === null ? (
          'Not provided'
        ) : (
          <EmailCell
            email={user.email}
            isMarkedUnverified={isVerifiedEmailRequired && !user.emailVerified}
          />
        ),
    },
    {
      header: 'Status',
      cell: (user) => <AppUserStatusBadge status={getAppUserStatus(user, now)} />,
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
