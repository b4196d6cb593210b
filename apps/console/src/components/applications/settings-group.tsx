import type { ReactNode } from 'react';
import { FormError } from '@/components/ui/form-field.tsx';

/**
 * One titled group of the Settings dialog, framed and named for screen readers by its heading.
 * Its problem is shown inside it, beside its fields near the end of a long dialog, rather than
 * above the form where a phone would not show it.
 */
export function SettingsGroup({
  id,
  title,
  description,
  problem,
  children,
}: {
  /** The group's id; its heading is `${id}-heading`. */
  id: string;
  title: string;
  description: string;
  /** The problem that stopped the last submit, or null. */
  problem: string | null | undefined;
  children: ReactNode;
}) {
  return (
    <div
      role="group"
      aria-labelledby={`${id}-heading`}
      className="grid gap-4 rounded-lg border border-border p-4"
    >
      <div className="grid gap-1">
        <h3 id={`${id}-heading`} className="text-sm font-semibold">
          {title}
        </h3>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      <FormError>{problem}</FormError>
      {children}
    </div>
  );
}
