import { Info } from 'lucide-react';
import type { ReactNode } from 'react';

/** A boxed note at the top of a form: something about the server the owner should know first. */
export function InfoNote({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className="flex gap-2 rounded-md border bg-muted/40 p-3 text-sm">
      <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}
