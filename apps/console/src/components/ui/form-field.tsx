import type { ComponentProps, ReactNode } from 'react';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { cn } from '@/lib/utils.ts';

/** A label above its control, with an optional hint below tied to it by aria-describedby. */
export function FormField({
  htmlFor,
  label,
  hint,
  isRequired = false,
  className,
  children,
}: {
  htmlFor: string;
  label: ReactNode;
  /** Rendered with id `${htmlFor}-hint`; pass that id as the control's aria-describedby. */
  hint?: ReactNode;
  isRequired?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={htmlFor}>
        {label}
        {isRequired && (
          <span aria-hidden="true" className="-ml-1 text-destructive">
            *
          </span>
        )}
      </Label>
      {children}
      {hint && (
        <p id={`${htmlFor}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

/** What a labelled control takes beside its own attributes. */
interface LabelledControlProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  isRequired?: boolean;
  /** Classes of the field (label, control and hint together); `className` styles the control. */
  fieldClassName?: string;
  onValueChange?: (value: string) => void;
}

/**
 * FormField around a text control, with the hint and the requirement told to screen readers
 * as well (aria-describedby, aria-required), so no form forgets to wire them.
 */
function LabelledControl({
  id,
  label,
  hint,
  isRequired = false,
  fieldClassName,
  children,
}: Omit<LabelledControlProps, 'onValueChange'> & {
  children: (aria: {
    'aria-required': true | undefined;
    'aria-describedby': string | undefined;
  }) => ReactNode;
}) {
  return (
    <FormField
      htmlFor={id}
      label={label}
      hint={hint}
      isRequired={isRequired}
      className={fieldClassName}
    >
      {children({
        'aria-required': isRequired || undefined,
        'aria-describedby': hint ? `${id}-hint` : undefined,
      })}
    </FormField>
  );
}

/** A labelled one-line text input. */
export function InputField({
  id,
  label,
  hint,
  isRequired,
  fieldClassName,
  onValueChange,
  ...inputProps
}: Omit<ComponentProps<'input'>, 'id'> & LabelledControlProps) {
  return (
    <LabelledControl {...{ id, label, hint, isRequired, fieldClassName }}>
      {(aria) => (
        <Input
          id={id}
          {...aria}
          onChange={onValueChange && ((event) => onValueChange(event.target.value))}
          {...inputProps}
        />
      )}
    </LabelledControl>
  );
}

/** A labelled text area, for text of a few lines (a description, a reason). */
export function TextareaField({
  id,
  label,
  hint,
  isRequired,
  fieldClassName,
  onValueChange,
  ...textareaProps
}: Omit<ComponentProps<'textarea'>, 'id'> & LabelledControlProps) {
  return (
    <LabelledControl {...{ id, label, hint, isRequired, fieldClassName }}>
      {(aria) => (
        <Textarea
          id={id}
          {...aria}
          onChange={onValueChange && ((event) => onValueChange(event.target.value))}
          {...textareaProps}
        />
      )}
    </LabelledControl>
  );
}

/** A form-level validation message, announced when it appears. */
export function FormError({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive"
    >
      {children}
    </p>
  );
}
