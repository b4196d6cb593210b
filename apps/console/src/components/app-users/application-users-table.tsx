import type { AppUser } from '@latchkey/contracts';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import { cn } from '@/lib/utils.ts';
import { describeHwidCell, getAppUserStatus, getAppUserStatusBadges } from './app-user-display.ts';
import { AppUserRowActions } from './app-user-row-actions.tsx';
import { AppUserStatusBadge } from './app-user-status-badge.tsx';

function HwidCell({
  hwid,
  isHwidLockEnabled,
}: {
  hwid: string | null;
  isHwidLockEnabled: boolean;
}) {
  const cell = describeHwidCell(hwid, isHwidLockEnabled);
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

/** Spec doc 1 §2: the management page's users table. */
export function ApplicationUsersTable({
  users,
  isHwidLockEnabled,
  busyUserId,
  onEdit,
  onTogglePause,
  onResetHwid,
  onDelete,
}: {
  users: readonly AppUser[];
  isHwidLockEnabled: boolean;
  busyUserId: string | null;
  onEdit: (user: AppUser) => void;
  onTogglePause: (user: AppUser) => void;
  onResetHwid: (user: AppUser) => void;
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
          <TableHead>HWID</TableHead>
          <TableHead>Last Login</TableHead>
          <TableHead>Expires</TableHead>
          <TableHead pinned className="text-right">
            Actions
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((user) => {
          const isBusy = user.id === busyUserId;
          const hasExpired = getAppUserStatus(user, now) === 'Expired';
          return (
            <TableRow key={user.id} data-testid={`user-row-${user.username}`}>
              <TableCell className="max-w-48 truncate font-medium">{user.username}</TableCell>
              <TableCell
                className={cn('max-w-56 truncate', !user.email && 'text-muted-foreground italic')}
              >
                {user.email ?? 'Not provided'}
              </TableCell>
              <TableCell>
                <div className="flex flex-wrap items-center gap-1">
                  {getAppUserStatusBadges(user, now).map((status) => (
                    <AppUserStatusBadge key={status} status={status} />
                  ))}
                </div>
              </TableCell>
              <TableCell>
                <HwidCell hwid={user.hwid} isHwidLockEnabled={isHwidLockEnabled} />
              </TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">
                {user.lastLogin ? formatDateTime(user.lastLogin) : 'Never'}
              </TableCell>
              <TableCell
                data-expired={hasExpired || undefined}
                className={cn(
                  'whitespace-nowrap',
                  hasExpired ? 'font-medium text-destructive' : 'text-muted-foreground',
                )}
              >
                {user.expiresAt ? formatDateTime(user.expiresAt) : 'Never'}
              </TableCell>
              <TableCell pinned>
                <AppUserRowActions
                  user={user}
                  isBusy={isBusy}
                  onEdit={onEdit}
                  onTogglePause={onTogglePause}
                  onResetHwid={onResetHwid}
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
