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
import { cn } from '@/lib/utils.ts';

type ConfirmDialogProps = DialogOpenState & {
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  /** The harmless choice, where focus starts and what Escape does. */
  cancelLabel?: string;
  onConfirm: () => void;
  /** As Radix's: prevent the default to keep focus from returning to the opener. */
  onCloseAutoFocus?: (event: Event) => void;
  variant?: 'default' | 'destructive';
  /** Fields the action needs (a date, a number of days), between the question and the buttons. */
  children?: ReactNode;
  isConfirmDisabled?: boolean;
};

/** A controlled "are you sure?" before an irreversible or disruptive action. */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  onCloseAutoFocus,
  variant = 'destructive',
  children,
  isConfirmDisabled = false,
  ...openState
}: ConfirmDialogProps) {
  return (
    <AlertDialog {...openState}>
      <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel>{cancelLabel}</AlertDialogCancel>
          <AlertDialogAction variant={variant} onClick={onConfirm} disabled={isConfirmDisabled}>
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * The confirmation of an action on the item a row asked for (`useDialogTarget`): its words
 * describe that item and confirming acts on it. There is no item before the first opening,
 * so nothing is said or done then; after a closing the item stays, and so do the words while
 * the closing animation plays.
 */
export function ConfirmTargetDialog<Target>({
  dialog: { target, dialogProps },
  title,
  description,
  onConfirm,
  ...confirm
}: Omit<ConfirmDialogProps, keyof DialogOpenState | 'title' | 'description' | 'onConfirm'> & {
  dialog: { target: Target | null; dialogProps: DialogOpenState };
  title: ReactNode | ((target: Target) => ReactNode);
  description: (target: Target) => ReactNode;
  onConfirm: (target: Target) => void;
}) {
  return (
    <ConfirmDialog
      {...dialogProps}
      {...confirm}
      title={typeof title === 'function' ? target !== null && title(target) : title}
      description={target !== null && description(target)}
      onConfirm={() => {
        if (target !== null) onConfirm(target);
      }}
    />
  );
}

/** The item a confirmation is about, in bold among its words; `isCode` for a name typed as code. */
export function ConfirmSubject({
  isCode = false,
  children,
}: {
  isCode?: boolean;
  children: ReactNode;
}) {
  return (
    <strong className={cn(isCode && 'font-mono', 'font-medium break-all text-foreground')}>
      {children}
    </strong>
  );
}
