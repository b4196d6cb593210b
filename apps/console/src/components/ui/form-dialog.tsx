import { Plus, type LucideIcon } from 'lucide-react';
import {
  Fragment,
  useState,
  type ComponentType,
  type FormEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { Button } from '@/components/ui/button.tsx';
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
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useFormFields } from '@/hooks/use-form-fields.ts';
import { cn } from '@/lib/utils.ts';

/**
 * Who opens the dialog: its own trigger (a "New ..." button, drawn from `triggerIcon` and
 * `triggerLabel` unless the caller gives another), or its parent (a row's Edit), which then
 * holds the open state.
 */
type FormDialogOpening =
  | {
      trigger: ReactNode;
      triggerIcon?: never;
      triggerLabel?: never;
      open?: never;
      onOpenChange?: never;
    }
  | {
      trigger?: ReactNode;
      triggerIcon: LucideIcon;
      triggerLabel: string;
      open?: never;
      onOpenChange?: never;
    }
  | {
      trigger?: never;
      triggerIcon?: never;
      triggerLabel?: never;
      open: boolean;
      onOpenChange: (open: boolean) => void;
    };

/**
 * A dialog holding one form. Radix mounts the content only while the dialog is open, so each
 * opening starts from the form's initial fields; `children` is given `close` for the form to
 * call once it is done (saved, or cancelled).
 */
export function FormDialog({
  trigger,
  triggerIcon: TriggerIcon,
  triggerLabel,
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
  const triggerShown =
    trigger ??
    (TriggerIcon && (
      <Button>
        <TriggerIcon aria-hidden="true" />
        {triggerLabel}
      </Button>
    ));

  return (
    <Dialog open={isOpen} onOpenChange={setIsOpen}>
      {triggerShown !== undefined && <DialogTrigger asChild>{triggerShown}</DialogTrigger>}
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
  formRef,
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
  /** The form, for its fields hook to scroll to a marked field. */
  formRef?: Ref<HTMLFormElement>;
  className?: string;
  children: ReactNode;
}) {
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate className={cn('grid gap-4', className)}>
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
  /** Sends valid fields; `onRefused` is given the error when the save fails. */
  onSubmit: (fields: Fields, onRefused: (error: unknown) => void) => void;
  onCancel: () => void;
}

/** What a form's fields hook takes beside its initial fields and what to do with valid ones. */
type FieldChecks<Fields> = Pick<
  Parameters<typeof useFormFields<Fields & object>>[0],
  'validate' | 'validateFields' | 'fieldOfPath'
>;

/**
 * The fields of a form a create and an edit dialog share, checked by `validate` before they
 * are sent, and `dialogForm`: what its DialogForm takes (the dialog's words, the validation
 * message, and submit and cancel). A server's refusal is placed at the fields it names.
 */
export function useCreateOrEditForm<Fields extends object>(
  { initialFields, onSubmit, ...dialogWords }: CreateOrEditFormProps<Fields>,
  validate: (fields: Fields) => string | null,
  checks: Omit<FieldChecks<Fields>, 'validate'> = {},
) {
  const { validationError, submit, formRef, ...formFields } = useFormFields({
    initialFields,
    validate,
    ...checks,
    onValidSubmit: (fields) => onSubmit(fields, formFields.refuse),
  });
  return {
    ...formFields,
    formRef,
    dialogForm: { ...dialogWords, validationError, onSubmit: submit, formRef },
  };
}

/**
 * A dialog's form that one save sends: its fields (useFormFields), checked by `validate`, sent
 * to `mutation` as `toRequest` makes them, with `onDone` once the save succeeds. `dialogForm`
 * is what its DialogForm takes beside its words: the validation message, the save on its way,
 * and submit and cancel (cancel is `onDone` as well).
 */
export function useMutationForm<Fields extends object, Request>({
  initialFields,
  mutation,
  toRequest,
  onDone,
  ...checks
}: FieldChecks<Fields> & {
  initialFields: Fields | (() => Fields);
  mutation: FormSave<Request>;
  toRequest: (fields: Fields) => Request;
  onDone: () => void;
}) {
  const { validationError, submit, formRef, ...formFields } = useFormFields({
    initialFields,
    ...checks,
    onValidSubmit: (fields) =>
      mutation.mutate(toRequest(fields), { onSuccess: onDone, onError: formFields.refuse }),
  });
  return {
    ...formFields,
    validationError,
    formRef,
    dialogForm: {
      validationError,
      isSubmitting: mutation.isPending,
      onSubmit: submit,
      onCancel: onDone,
      formRef,
    },
  };
}

/** What a dialog that creates something for one application takes, opened from its own button. */
export interface ApplicationCreateDialogProps {
  applicationId: number;
  applicationName: string;
  /** Another button than the default one, such as an empty state's. */
  trigger?: ReactNode;
}

/**
 * A save a form dialog starts, as a mutation hook gives it; the dialog closes once it succeeds,
 * and a refusal is placed at the fields it names.
 */
export interface FormSave<Request> {
  isPending: boolean;
  mutate: (
    request: Request,
    options: { onSuccess: () => void; onError?: (error: unknown) => void },
  ) => void;
}

/**
 * A create dialog opened from its own button: one label names the button, the dialog and its
 * submit ("Create Plan"). The form (given by `children`) starts from `initialFields`; valid
 * fields go to `mutation` as `toRequest` makes them.
 */
export function CreateFormDialog<Fields, Request>({
  label,
  triggerIcon = Plus,
  trigger,
  className,
  description,
  initialFields,
  mutation,
  toRequest,
  children,
}: {
  label: string;
  triggerIcon?: LucideIcon;
  /** Another button than the default one, such as an empty state's. */
  trigger?: ReactNode;
  className?: string;
  description: string;
  initialFields: Fields;
  mutation: FormSave<Request>;
  toRequest: (fields: Fields) => Request;
  children: (form: CreateOrEditFormProps<Fields>) => ReactNode;
}) {
  return (
    <FormDialog
      className={className}
      trigger={trigger}
      triggerIcon={triggerIcon}
      triggerLabel={label}
    >
      {(close) =>
        children({
          title: label,
          description,
          submitLabel: label,
          initialFields,
          isSubmitting: mutation.isPending,
          onSubmit: (fields, onRefused) =>
            mutation.mutate(toRequest(fields), { onSuccess: close, onError: onRefused }),
          onCancel: close,
        })
      }
    </FormDialog>
  );
}

/**
 * The edit dialog of the item a row asked for, opened by its parent, saved with "Save Changes".
 * The form starts from `toFields(item)`, again whenever another item or a newer save of it opens.
 */
export function EditFormDialog<
  Item extends { id: string | number; updatedAt: string },
  Fields,
  Request,
>({
  item,
  open,
  onOpenChange,
  className,
  title,
  description,
  toFields,
  mutation,
  toRequest,
  children,
}: {
  item: Item | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  className?: string;
  title: string;
  description: string;
  toFields: (item: Item) => Fields;
  mutation: FormSave<Request>;
  toRequest: (fields: Fields, item: Item) => Request;
  children: (form: CreateOrEditFormProps<Fields>, item: Item) => ReactNode;
}) {
  return (
    <FormDialog className={className} open={open} onOpenChange={onOpenChange}>
      {(close) =>
        item && (
          <Fragment key={`${item.id}:${item.updatedAt}`}>
            {children(
              {
                title,
                description,
                submitLabel: 'Save Changes',
                initialFields: toFields(item),
                isSubmitting: mutation.isPending,
                onSubmit: (fields, onRefused) =>
                  mutation.mutate(toRequest(fields, item), {
                    onSuccess: close,
                    onError: onRefused,
                  }),
                onCancel: close,
              },
              item,
            )}
          </Fragment>
        )
      }
    </FormDialog>
  );
}

/**
 * The Create and Edit dialogs of one kind of thing an application holds (a plan, a variable),
 * both drawing the same `Form`: Create opens from its own "Create <noun>" button and starts
 * empty; Edit is opened by a row for its `item` and sends the fields as that item's changes.
 */
export function defineApplicationItemDialogs<
  Item extends { id: string | number; updatedAt: string },
  Fields,
  Request,
  Update,
>({
  noun,
  createDescription,
  editDescription,
  emptyFields,
  toFields,
  toRequest,
  toUpdate,
  useCreate,
  useUpdate,
  Form,
}: {
  noun: string;
  createDescription: (applicationName: string) => string;
  editDescription: string;
  emptyFields: Fields;
  toFields: (item: Item) => Fields;
  toRequest: (fields: Fields) => Request;
  /** The update request of `item` with `changes`. */
  toUpdate: (item: Item, changes: Request) => Update;
  useCreate: (applicationId: number) => FormSave<Request>;
  useUpdate: (applicationId: number) => FormSave<Update>;
  Form: ComponentType<CreateOrEditFormProps<Fields>>;
}) {
  function CreateItemDialog({
    applicationId,
    applicationName,
    trigger,
  }: ApplicationCreateDialogProps) {
    const create = useCreate(applicationId);
    return (
      <CreateFormDialog
        label={`Create ${noun}`}
        trigger={trigger}
        description={createDescription(applicationName)}
        initialFields={emptyFields}
        mutation={create}
        toRequest={toRequest}
      >
        {(form) => <Form {...form} />}
      </CreateFormDialog>
    );
  }

  function EditItemDialog({
    applicationId,
    item,
    ...openState
  }: DialogOpenState & { applicationId: number; item: Item | null }) {
    const update = useUpdate(applicationId);
    return (
      <EditFormDialog
        item={item}
        {...openState}
        title={`Edit ${noun}`}
        description={editDescription}
        toFields={toFields}
        mutation={update}
        toRequest={(fields, edited) => toUpdate(edited, toRequest(fields))}
      >
        {(form) => <Form {...form} />}
      </EditFormDialog>
    );
  }

  return { CreateItemDialog, EditItemDialog };
}
