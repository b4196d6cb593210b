import type { AppUserListRow } from '@latchkey/contracts';
import { Lock, LockOpen, ShieldOff, TriangleAlert } from 'lucide-react';
import type { DataTableDefinition } from '@/components/ui/data-table.tsx';
import { cn } from '@/lib/utils.ts';
import {
  actionsColumn,
  appUsersTable,
  expiresColumn,
  lastLoginColumn,
  usernameColumn,
  type AppUserRowHandlers,
} from './app-user-columns.tsx';
import {
  describeLoginAttempts,
  describeHwidLockCell,
  getAppUserStatus,
  type HwidLockLabel,
} from './app-user-display.ts';
import { AppUserStatusBadge } from './app-user-status-badge.tsx';

const HWID_LOCK_ICONS = { Disabled: ShieldOff, Locked: Lock, 'Not Set': LockOpen } as const;

function HwidLockCell({
  label,
  text,
  hwid,
}: {
  label: HwidLockLabel;
  /** The label, or the count of devices ("2 of 3 devices") where several may be bound. */
  text: string;
  hwid: string | null;
}) {
  const Icon = HWID_LOCK_ICONS[label];
  return (
    <span
      title={label === 'Locked' && hwid ? hwid : undefined}
      className={cn(
        'inline-flex items-center gap-1.5 text-sm whitespace-nowrap',
        label === 'Locked' ? 'text-foreground' : 'text-muted-foreground',
      )}
    >
      <Icon className={cn('size-3.5', label === 'Locked' && 'text-primary')} aria-hidden="true" />
      {text}
    </span>
  );
}

function LoginAttemptsCell({ loginAttempts }: { loginAttempts: number }) {
  const { isExcessive, hasWarning } = describeLoginAttempts(loginAttempts);
  return (
    <span
      data-testid="login-attempts"
      className={cn(
        'inline-flex items-center gap-1 tabular-nums',
        isExcessive && 'font-semibold text-destructive',
      )}
    >
      {hasWarning && (
        <TriangleAlert
          className={cn('size-3.5', isExcessive ? 'text-destructive' : 'text-warning')}
          aria-label="Failed login attempts"
          role="img"
        />
      )}
      {loginAttempts}
    </span>
  );
}

/** The dashboard's users table. */
export function dashboardUsersTable({
  isHwidLockEnabled,
  now = new Date(),
  ...handlers
}: Omit<AppUserRowHandlers, 'onResetHwid'> & {
  isHwidLockEnabled: boolean;
  now?: Date;
}): DataTableDefinition<AppUserListRow> {
  return appUsersTable([
    usernameColumn,
    {
      header: 'Email',
      cellClassName: 'max-w-56 truncate text-muted-foreground',
      cell: (user) => user.email ?? '—',
    },
    {
      header: 'Status',
      cell: (user) => <AppUserStatusBadge status={getAppUserStatus(user, now)} />,
    },
    {
      header: 'HWID Lock',
      cell: (user) => (
        <HwidLockCell
          {...describeHwidLockCell(user.hwid, isHwidLockEnabled, user)}
          hwid={user.hwid}
        />
      ),
    },
    {
      header: 'Login Attempts',
      cell: (user) => <LoginAttemptsCell loginAttempts={user.loginAttempts} />,
    },
    expiresColumn(now),
    lastLoginColumn,
    actionsColumn(handlers),
  ]);
}
