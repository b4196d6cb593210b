import type { LucideIcon } from 'lucide-react';
import { StatCard } from './stat-card.tsx';

export interface StatGridItem {
  title: string;
  value: string;
  description: string;
  icon: LucideIcon;
  testId: string;
}

/** A labelled section of stat cards, two to a row on phones and four on wide screens. */
export function StatGrid({
  headingId,
  heading,
  items,
  isLoading,
  errorMessage,
}: {
  headingId: string;
  /** Read by screen readers only. */
  heading: string;
  items: readonly StatGridItem[];
  isLoading: boolean;
  /** Shown above the cards when set. */
  errorMessage?: string;
}) {
  return (
    <section aria-labelledby={headingId} aria-busy={isLoading}>
      <h2 id={headingId} className="sr-only">
        {heading}
      </h2>
      {errorMessage && (
        <p role="alert" className="mb-4 text-sm text-destructive">
          {errorMessage}
        </p>
      )}
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {items.map((item) => (
          <StatCard key={item.testId} {...item} isLoading={isLoading} />
        ))}
      </div>
    </section>
  );
}
