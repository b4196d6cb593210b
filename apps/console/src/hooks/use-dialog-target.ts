import { useCallback, useState } from 'react';

/** What a dialog that its parent opens and closes takes. */
export interface DialogOpenState {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Which item a table's single edit/confirm dialog is about. The item outlives `isOpen`, so the
 * dialog keeps its content while its closing animation plays. `dialogProps` opens and closes
 * that dialog.
 */
export function useDialogTarget<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [isOpen, setIsOpen] = useState(false);

  const open = useCallback((item: T) => {
    setTarget(item);
    setIsOpen(true);
  }, []);

  const dialogProps: DialogOpenState = { open: isOpen, onOpenChange: setIsOpen };

  return { target, isOpen, open, setIsOpen, dialogProps };
}
