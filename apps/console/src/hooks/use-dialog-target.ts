import { useCallback, useState } from 'react';

/**
 * Which item a table's single edit/confirm dialog is about. The item outlives `isOpen`, so the
 * dialog keeps its content while its closing animation plays.
 */
export function useDialogTarget<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [isOpen, setIsOpen] = useState(false);

  const open = useCallback((item: T) => {
    setTarget(item);
    setIsOpen(true);
  }, []);

  return { target, isOpen, open, setIsOpen };
}
