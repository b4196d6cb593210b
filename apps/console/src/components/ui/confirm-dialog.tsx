import type { ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';

/** A controlled "are you sure?" before an irreversible or disruptive action. */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  onConfirm,
  variant = 'destructive',
  children,
  isConfirmDisabled = false,
  ...openState
}: DialogOpenState & {
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  variant?: 'default' | 'destructive';
  /** Fields the action needs (a date, a number of days), between the question and the buttons. */
  children?: ReactNode;
  isConfirmDisabled?: boolean;
}) {
  return (
    <AlertDialog {...openState}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant={variant} onClick={onConfirm} disabled={isConfirmDisabled}>
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
