import type { AppUser } from '@latchkey/contracts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';

/** Asks before an end user is deleted for good. */
export function DeleteAppUserDialog({
  user,
  onDelete,
  ...openState
}: DialogOpenState & {
  user: AppUser | null;
  onDelete: (user: AppUser) => void;
}) {
  return (
    <ConfirmDialog
      {...openState}
      title="Delete user?"
      description={
        <>
          <strong className="font-medium text-foreground">{user?.username}</strong> will be
          permanently deleted. This action cannot be undone.
        </>
      }
      confirmLabel="Delete User"
      onConfirm={() => user && onDelete(user)}
    />
  );
}
