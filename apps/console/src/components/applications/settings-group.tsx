import type { ReactNode } from 'react';

/**
 * One titled group of the Settings dialog, framed and named for screen readers by its heading.
 * Its fields show their own problems.
 */
export function SettingsGroup({
  id,
  title,
  description,
  children,
}: {
  /** The group's id; its heading is `${id}-heading`. */
  id: string;
  title: string;
  description: string;
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
      {children}
    </div>
  );
}
