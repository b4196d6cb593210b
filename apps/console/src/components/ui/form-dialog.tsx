import { useState, type FormEvent, type ReactNode } from 'react';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog.tsx';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer.tsx';
import { FormError } from '@/components/ui/form-field.tsx';
import { cn } from '@/lib/utils.ts';

/**
 * Who opens the dialog: its own trigger (a "New ..." button), or its parent (a row's Edit),
 * which then holds the open state.
 */
type FormDialogOpening =
  | { trigger: ReactNode; open?: never; onOpenChange?: never }
  | { trigger?: never; open: boolean; onOpenChange: (open: boolean) => void };

/**
 * A dialog holding one form. Radix mounts the content only while the dialog is open, so each
 * opening starts from the form's initial fields; `children` is given `close` for the form to
 * call once it is done (saved, or cancelled).
 */
export function FormDialog({
  trigger,
  open,
  onOpenChange,
  className,
  children,
}: FormDialogOpening & {
  /** The content's classes: a wider form says `sm:max-w-2xl`. */
  className?: string;
  children: (close: () => void) => ReactNode;
}) {
  const [isOpenHere, setIsOpenHere] = useState(false);
  const isOpen = open ?? isOpenHere;
  const setIsOpen = onOpenChange ?? setIsOpenHere;

  return (
    <Dialog open={isOpen} onOpenChange={setIsOpen}>
      {trigger !== undefined && <DialogTrigger asChild>{trigger}</DialogTrigger>}
      <DialogContent className={className}>{children(() => setIsOpen(false))}</DialogContent>
    </Dialog>
  );
}

/**
 * The form inside a FormDialog: its title and description (which name the dialog for screen
 * readers), the validation message, the fields, and Cancel beside the submit button, which waits
 * while the form is being sent. The browser's own validation is off: the console's messages
 * are the ones the spec gives.
 */
export function DialogForm({
  title,
  description,
  descriptionClassName,
  validationError = null,
  submitLabel,
  isSubmitting,
  onSubmit,
  onCancel,
  className,
  children,
}: {
  title: ReactNode;
  description: ReactNode;
  descriptionClassName?: string;
  validationError?: string | null;
  submitLabel: string;
  isSubmitting: boolean;
  onSubmit: () => void;
  onCancel: () => void;
  className?: string;
  children: ReactNode;
}) {
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form onSubmit={handleSubmit} noValidate className={cn('grid gap-4', className)}>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription className={descriptionClassName}>{description}</DialogDescription>
      </DialogHeader>
      <FormError>{validationError}</FormError>
      {children}
      <DialogFormFooter submitLabel={submitLabel} isSubmitting={isSubmitting} onCancel={onCancel} />
    </form>
  );
}

/**
 * What a create dialog and an edit dialog give the one form they share: its words, the fields
 * it starts from, and what to do with valid fields. The form spreads the rest into DialogForm.
 */
export interface CreateOrEditFormProps<Fields> {
  title: string;
  description: string;
  submitLabel: string;
  initialFields: Fields;
  isSubmitting: boolean;
  onSubmit: (fields: Fields) => void;
  onCancel: () => void;
}
