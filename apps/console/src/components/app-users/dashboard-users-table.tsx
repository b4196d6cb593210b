import type { AppUser } from '@latchkey/contracts';
import { Lock, LockOpen, ShieldOff, TriangleAlert } from 'lucide-react';
import { formatDateTime } from '@/components/applications/application-display.ts';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import { cn } from '@/lib/utils.ts';
import {
  describeLoginAttempts,
  getAppUserStatus,
  getHwidLockLabel,
  type HwidLockLabel,
} from './app-user-display.ts';
import { AppUserRowActions } from './app-user-row-actions.tsx';
import { AppUserStatusBadge } from './app-user-status-badge.tsx';

const HWID_LOCK_ICONS = { Disabled: ShieldOff, Locked: Lock, 'Not Set': LockOpen } as const;

function HwidLockCell({ label, hwid }: { label: HwidLockLabel; hwid: string | null }) {
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
      {label}
    </span>
  );
}

export function LoginAttemptsCell({ loginAttempts }: { loginAttempts: number }) {
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

/** Spec doc 1 §2: the dashboard's users table. */
export function DashboardUsersTable({
  users,
  isHwidLockEnabled,
  busyUserId,
  onEdit,
  onTogglePause,
  onDelete,
}: {
  users: readonly AppUser[];
  isHwidLockEnabled: boolean;
  /** The user a row action is currently changing; its buttons wait for it. */
  busyUserId: string | null;
  onEdit: (user: AppUser) => void;
  onTogglePause: (user: AppUser) => void;
  onDelete: (user: AppUser) => void;
}) {
  const now = new Date();
  return (
    <Table label="Users">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Username</TableHead>
          <TableHead>Email</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>HWID Lock</TableHead>
          <TableHead>Login Attempts</TableHead>
          <TableHead>Expires</TableHead>
          <TableHead>Last Login</TableHead>
          <TableHead pinned className="text-right">
            Actions
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((user) => {
          const isBusy = user.id === busyUserId;
          const status = getAppUserStatus(user, now);
          return (
            <TableRow key={user.id} data-testid={`user-row-${user.username}`}>
              <TableCell className="max-w-48 truncate font-medium">{user.username}</TableCell>
              <TableCell className="max-w-56 truncate text-muted-foreground">
                {user.email ?? '—'}
              </TableCell>
              <TableCell>
                <AppUserStatusBadge status={status} />
              </TableCell>
              <TableCell>
                <HwidLockCell
                  label={getHwidLockLabel(user.hwid, isHwidLockEnabled)}
                  hwid={user.hwid}
                />
              </TableCell>
              <TableCell>
                <LoginAttemptsCell loginAttempts={user.loginAttempts} />
              </TableCell>
              <TableCell
                className={cn(
                  'whitespace-nowrap',
                  status === 'Expired' ? 'text-destructive' : 'text-muted-foreground',
                )}
              >
                {user.expiresAt ? formatDateTime(user.expiresAt) : 'Never'}
              </TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">
                {user.lastLogin ? formatDateTime(user.lastLogin) : 'Never'}
              </TableCell>
              <TableCell pinned>
                <AppUserRowActions
                  user={user}
                  isBusy={isBusy}
                  onEdit={onEdit}
                  onTogglePause={onTogglePause}
                  onDelete={onDelete}
                />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
