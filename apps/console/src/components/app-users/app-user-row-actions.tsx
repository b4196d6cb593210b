import type { AppUser, AppUserListRow } from '@latchkey/contracts';
import { Pause, Pencil, Play, RotateCcw, Trash2 } from 'lucide-react';
import { EMPTY_ACTION_SLOT, RowActions } from '@/components/ui/row-actions.tsx';

/** A users-table row's actions; they wait while the row's user is busy. */
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
  /** Given where a user's HWID can be reset: adds a "Reset HWID" action for users with one. */
  onResetHwid?: (user: AppUser) => void;
  onDelete: (user: AppUser) => void;
}) {
  return (
    <RowActions
      rowName={user.username}
      actions={[
        { label: 'Edit user', icon: Pencil, isDisabled: isBusy, onSelect: () => onEdit(user) },
        {
          label: user.isPaused ? 'Unpause user' : 'Pause user',
          icon: user.isPaused ? Play : Pause,
          isDisabled: isBusy,
          onSelect: () => onTogglePause(user),
        },
        onResetHwid !== undefined &&
          (user.hwid
            ? {
                label: 'Reset HWID',
                icon: RotateCcw,
                isDisabled: isBusy,
                onSelect: () => onResetHwid(user),
              }
            : EMPTY_ACTION_SLOT),
        {
          label: 'Delete user',
          icon: Trash2,
          isDisabled: isBusy,
          isDestructive: true,
          onSelect: () => onDelete(user),
        },
      ]}
    />
  );
}
