import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** How to close each open dialog, newest last: Escape belongs to the newest only. */
const openDialogs: Array<() => void> = [];

/**
 * Closes the newest open dialog, for a layer beneath it that saw Escape first (a toast stays
 * Radix's top layer for a moment after a dialog opens over it); false if no dialog is open.
 */
export function closeNewestOpenDialog(): boolean {
  const close = openDialogs.at(-1);
  close?.();
  return close !== undefined;
}

/**
 * A dialog's open state, controlled or not, plus Escape that always closes it. Radix lets only
 * the topmost dismissable layer see Escape, and a dialog becomes that layer only a render after
 * it mounts; a toast is a layer too, and one raised while the dialog is open stays above it (it
 * hands Escape on through closeNewestOpenDialog). Radix layers handle Escape first (capture
 * phase) and cancel the event when they close something, so this closes the dialog only when
 * nothing else did.
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

  // A layout effect: in place as the dialog is committed, before it paints, so the first key
  // pressed at an open dialog finds it (a passive effect can wait for a later task).
  useLayoutEffect(() => {
    if (!isOpen) return;
    const self = () => setOpen(false);
    openDialogs.push(self);
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (openDialogs.at(-1) !== self) return;
      event.preventDefault();
      self();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('keydown', closeOnEscape);
      openDialogs.splice(openDialogs.indexOf(self), 1);
    };
  }, [isOpen, setOpen]);

  return [isOpen, setOpen] as const;
}
