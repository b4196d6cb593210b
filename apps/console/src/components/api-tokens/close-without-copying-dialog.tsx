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

export const CLOSE_WITHOUT_COPYING_TITLE = 'Close without copying?';
export const CLOSE_WITHOUT_COPYING_WARNING =
  'The token is shown only once. Make sure you have copied it.';

/**
 * Asked before the one-time token dialog closes with its token not copied. Keep Open (where
 * focus starts, and what Escape does) goes back to the token; Close gives it up.
 */
export function CloseWithoutCopyingDialog({
  onClose,
  isClosingAll,
  ...openState
}: DialogOpenState & {
  onClose: () => void;
  /** The token dialog closes too: focus is its to return, not this confirmation's. */
  isClosingAll: boolean;
}) {
  return (
    <AlertDialog {...openState}>
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          if (isClosingAll) event.preventDefault();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>{CLOSE_WITHOUT_COPYING_TITLE}</AlertDialogTitle>
          <AlertDialogDescription>{CLOSE_WITHOUT_COPYING_WARNING}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Keep Open</AlertDialogCancel>
          <AlertDialogAction onClick={onClose}>Close</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
