import type { AppUser, AppUserListRow } from '@latchkey/contracts';
import { Pause, Pencil, Play, RotateCcw, Trash2 } from 'lucide-react';
import { IconButton } from '@/components/ui/icon-button.tsx';

/** The icon buttons at the end of a users-table row; they wait while the row's user is busy. */
export function AppUserRowActions({
  user,
  isBusy,
  onEdit,
  onTogglePause,
  onResetHwid,
  onDelete,
}: {
  user: AppUserListRow;
  isBusy: boolean;
  onEdit: (user: AppUserListRow) => void;
  onTogglePause: (user: AppUser) => void;
  /** Given where a user's HWID can be reset: adds a "Reset HWID" button for users with one. */
  onResetHwid?: (user: AppUser) => void;
  onDelete: (user: AppUser) => void;
}) {
  return (
    <div className="flex items-center justify-end gap-0.5">
      <IconButton label="Edit user" disabled={isBusy} onClick={() => onEdit(user)}>
        <Pencil aria-hidden="true" />
      </IconButton>
      <IconButton
        label={user.isPaused ? 'Unpause user' : 'Pause user'}
        disabled={isBusy}
        onClick={() => onTogglePause(user)}
      >
        {user.isPaused ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}
      </IconButton>
      {onResetHwid &&
        (user.hwid ? (
          <IconButton label="Reset HWID" disabled={isBusy} onClick={() => onResetHwid(user)}>
            <RotateCcw aria-hidden="true" />
          </IconButton>
        ) : (
          // An empty slot keeps the other buttons aligned across rows.
          <span aria-hidden="true" className="size-8" />
        ))}
      <IconButton
        label="Delete user"
        disabled={isBusy}
        isDestructive
        onClick={() => onDelete(user)}
      >
        <Trash2 aria-hidden="true" />
      </IconButton>
    </div>
  );
}
