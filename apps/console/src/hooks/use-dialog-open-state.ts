import { useCallback, useEffect, useRef, useState } from 'react';

/** Open dialogs, newest last: Escape belongs to the newest only. */
const openDialogs: symbol[] = [];

/**
 * A dialog's open state, controlled or not, plus Escape that always closes it. Radix lets only
 * the topmost dismissable layer see Escape, and a toast is one: after a failed save the error
 * toast took Escape and the dialog stayed open. Radix layers handle Escape first (capture phase)
 * and cancel the event when they close something, so this closes the dialog only when nothing
 * else did.
 */
export function useDialogOpenState({
  open,
  defaultOpen = false,
  onOpenChange,
}: {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const [uncontrolledOpen, setUncontrolledOpen] = useState(defaultOpen);
  const isControlled = open !== undefined;
  const isOpen = isControlled ? open : uncontrolledOpen;

  const onOpenChangeRef = useRef(onOpenChange);
  useEffect(() => {
    onOpenChangeRef.current = onOpenChange;
  });

  const setOpen = useCallback(
    (next: boolean) => {
      if (!isControlled) setUncontrolledOpen(next);
      onOpenChangeRef.current?.(next);
    },
    [isControlled],
  );

  useEffect(() => {
    if (!isOpen) return;
    const self = Symbol('dialog');
    openDialogs.push(self);
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (openDialogs.at(-1) !== self) return;
      event.preventDefault();
      setOpen(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('keydown', closeOnEscape);
      openDialogs.splice(openDialogs.indexOf(self), 1);
    };
  }, [isOpen, setOpen]);

  return [isOpen, setOpen] as const;
}
