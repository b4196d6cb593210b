import type { ReactNode } from 'react';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';

/**
 * A dialog about the item a row asked for, opened by its parent: its title and description,
 * then `children` drawn for the item. Radix mounts the content only while the dialog is open,
 * so what the children hold (a page, a revealed secret) starts afresh at each opening.
 */
export function ItemDialog<Item>({
  item,
  title,
  description,
  descriptionClassName,
  className,
  children,
  ...openState
}: DialogOpenState & {
  item: Item | null;
  title: string;
  description: ReactNode;
  descriptionClassName?: string;
  /** The content's classes: a wide one says `sm:max-w-5xl`. */
  className?: string;
  children: (item: Item) => ReactNode;
}) {
  return (
    <Dialog {...openState}>
      <DialogContent className={className}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription className={descriptionClassName}>{description}</DialogDescription>
        </DialogHeader>
        {item !== null && children(item)}
      </DialogContent>
    </Dialog>
  );
}
