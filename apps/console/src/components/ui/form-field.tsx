import type { ComponentProps, ReactNode } from 'react';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
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

/**
 * A labelled text input: FormField around an Input, with the hint and the requirement told to
 * screen readers as well (aria-describedby, aria-required) so no form forgets to wire them.
 */
export function InputField({
  id,
  label,
  hint,
  isRequired = false,
  fieldClassName,
  onValueChange,
  ...inputProps
}: Omit<ComponentProps<'input'>, 'id'> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  isRequired?: boolean;
  /** Classes of the field (label, input and hint together); `className` styles the input. */
  fieldClassName?: string;
  onValueChange?: (value: string) => void;
}) {
  return (
    <FormField
      htmlFor={id}
      label={label}
      hint={hint}
      isRequired={isRequired}
      className={fieldClassName}
    >
      <Input
        id={id}
        aria-required={isRequired || undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={onValueChange && ((event) => onValueChange(event.target.value))}
        {...inputProps}
      />
    </FormField>
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
