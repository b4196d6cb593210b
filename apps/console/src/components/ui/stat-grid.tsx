import type { LucideIcon } from 'lucide-react';
import { cn } from '@/lib/utils.ts';
import { StatCard } from './stat-card.tsx';
import { StatLoadError } from './stat-load-error.tsx';

export interface StatGridItem {
  title: string;
  value: string;
  description: string;
  icon: LucideIcon;
  testId: string;
}

/**
 * A labelled section of stat cards, two to a row on phones and four on wide screens; six cards
 * go three to a row, then all six in one row on the widest, so no row is left half empty.
 */
export function StatGrid({
  headingId,
  heading,
  items,
  isLoading,
  error,
}: {
  headingId: string;
  /** Read by screen readers only. */
  heading: string;
  items: readonly StatGridItem[];
  isLoading: boolean;
  /** Shown above the cards, with a Retry, when they could not be loaded. */
  error?: { message: string; isRetrying: boolean; onRetry: () => void };
}) {
  return (
    <section aria-labelledby={headingId} aria-busy={isLoading}>
      <h2 id={headingId} className="sr-only">
        {heading}
      </h2>
      {error && <StatLoadError {...error} className="mb-4 flex flex-wrap items-center gap-3" />}
      <div
        className={cn(
          'grid grid-cols-2 gap-3 sm:gap-4',
          items.length === 6 ? 'lg:grid-cols-3 xl:grid-cols-6' : 'lg:grid-cols-4',
        )}
      >
        {items.map((item) => (
          <StatCard key={item.testId} {...item} isLoading={isLoading} />
        ))}
      </div>
    </section>
  );
}
