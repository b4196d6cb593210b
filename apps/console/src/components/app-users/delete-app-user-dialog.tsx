import type { AppUser } from '@latchkey/contracts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';

/** Asks before an end user is deleted for good. */
export function DeleteAppUserDialog({
  user,
  open,
  onOpenChange,
  onDelete,
}: {
  user: AppUser | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDelete: (user: AppUser) => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
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
