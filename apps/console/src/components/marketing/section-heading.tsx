import type { ReactNode } from 'react';
import { cn } from '@/lib/utils.ts';

export function SectionHeading({
  eyebrow,
  title,
  titleId,
  description,
  className,
}: {
  eyebrow?: string;
  title: string;
  /** Lets the enclosing section name itself with aria-labelledby. */
  titleId?: string;
  description?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('mx-auto max-w-2xl text-center', className)}>
      {eyebrow && (
        <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
      )}
      <h2 id={titleId} className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl">
        {title}
      </h2>
      {description && (
        <p className="mt-4 text-base leading-relaxed text-pretty text-muted-foreground sm:text-lg">
          {description}
        </p>
      )}
    </div>
  );
}
