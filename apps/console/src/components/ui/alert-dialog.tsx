import * as AlertDialogPrimitive from '@radix-ui/react-alert-dialog';
import type { ComponentProps } from 'react';
import { buttonVariants } from '@/components/ui/button.tsx';
import { useDialogOpenState } from '@/hooks/use-dialog-open-state.ts';
import { rememberDialogOpener, returnFocusToOpener } from '@/lib/dialog-opener.ts';
import { cn } from '@/lib/utils.ts';

/**
 * A confirmation before something irreversible. Unlike Dialog it does not close on an outside
 * click, and focus starts on Cancel, so a stray Enter never confirms a deletion.
 */
export function AlertDialog({
  open,
  defaultOpen,
  onOpenChange,
  ...props
}: ComponentProps<typeof AlertDialogPrimitive.Root>) {
  const [isOpen, setOpen] = useDialogOpenState({ open, defaultOpen, onOpenChange });
  return <AlertDialogPrimitive.Root open={isOpen} onOpenChange={setOpen} {...props} />;
}

/** On close focus returns to whatever opened the confirmation (see lib/dialog-opener.ts). */
export function AlertDialogContent({
  className,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof AlertDialogPrimitive.Content>) {
  return (
    <AlertDialogPrimitive.Portal>
      <AlertDialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50 backdrop-blur-[2px] data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in motion-reduce:animate-none" />
      <AlertDialogPrimitive.Content
        className={cn(
          'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-full max-w-[calc(100%-2rem)] overflow-y-auto -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border border-border bg-background p-6 shadow-xl outline-none data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in motion-reduce:animate-none sm:max-w-md',
          className,
        )}
        onOpenAutoFocus={(event) => {
          rememberDialogOpener(event.currentTarget as Element);
          onOpenAutoFocus?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (!event.defaultPrevented && returnFocusToOpener(event.currentTarget as Element)) {
            event.preventDefault();
          }
        }}
        {...props}
      />
    </AlertDialogPrimitive.Portal>
  );
}

export function AlertDialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-2 text-left', className)} {...props} />;
}

export function AlertDialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)}
      {...props}
    />
  );
}

export function AlertDialogTitle({
  className,
  ...props
}: ComponentProps<typeof AlertDialogPrimitive.Title>) {
  return (
    <AlertDialogPrimitive.Title
      className={cn('text-lg font-semibold tracking-tight wrap-anywhere', className)}
      {...props}
    />
  );
}

export function AlertDialogDescription({
  className,
  ...props
}: ComponentProps<typeof AlertDialogPrimitive.Description>) {
  return (
    <AlertDialogPrimitive.Description
      className={cn('text-sm text-muted-foreground wrap-anywhere', className)}
      {...props}
    />
  );
}

export function AlertDialogAction({
  className,
  variant = 'destructive',
  ...props
}: ComponentProps<typeof AlertDialogPrimitive.Action> & {
  variant?: 'default' | 'destructive';
}) {
  return (
    <AlertDialogPrimitive.Action
      className={cn(buttonVariants({ variant }), className)}
      {...props}
    />
  );
}

export function AlertDialogCancel({
  className,
  ...props
}: ComponentProps<typeof AlertDialogPrimitive.Cancel>) {
  return (
    <AlertDialogPrimitive.Cancel
      className={cn(buttonVariants({ variant: 'outline' }), className)}
      {...props}
    />
  );
}
