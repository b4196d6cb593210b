import type { ReactNode } from 'react';
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
