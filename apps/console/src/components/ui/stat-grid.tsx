import type { LucideIcon } from 'lucide-react';
import { cn } from '@/lib/utils.ts';
import { formatStatCount, StatCard } from './stat-card.tsx';
import { StatLoadError } from './stat-load-error.tsx';

export interface StatGridItem {
  title: string;
  value: string;
  description: string;
  icon: LucideIcon;
  testId: string;
}

/** A figure's test id, drawn from its title: "Total Users" is `stat-total-users`. */
export const statTestId = (title: string) => `stat-${title.toLowerCase().replaceAll(' ', '-')}`;

/** A card showing a count (unknown while `count` is), its test id drawn from its title. */
export function countStat(
  title: string,
  count: number | undefined,
  description: string,
  icon: LucideIcon,
): StatGridItem {
  return { title, value: formatStatCount(count), description, icon, testId: statTestId(title) };
}

/** Where the figures of a stat grid are: loading, failed (with a Retry), or known. */
export interface StatLoadState {
  isLoading: boolean;
  isError: boolean;
  isRetrying: boolean;
  onRetry: () => void;
}

/**
 * The load state of the query that reads a stat grid's figures. `isFetching` is read only after
 * a failure: TanStack Query re-renders a component for the fields it read, so a grid that
 * showed its figures is not drawn again, twice, for each background refetch.
 */
export function toStatLoadState(query: {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}): StatLoadState {
  return {
    isLoading: query.isPending,
    isError: query.isError,
    isRetrying: query.isError && query.isFetching,
    onRetry: () => void query.refetch(),
  };
}

/**
 * A labelled section of stat cards, two to a row on phones and four on wide screens; six cards
 * go three to a row, then all six in one row on the widest, so no row is left half empty.
 * The cards are drawn from the figures, which are unknown while they load and after a failed
 * read: the last figures may no longer be true, and no card shows a stale or made-up number.
 */
export function StatGrid<Stats>({
  headingId,
  heading,
  stats,
  items,
  errorMessage,
  isLoading,
  isError,
  isRetrying,
  onRetry,
}: StatLoadState & {
  headingId: string;
  /** Read by screen readers only. */
  heading: string;
  stats: Stats | undefined;
  items: (stats: Stats | undefined) => readonly StatGridItem[];
  /** Shown above the cards, with a Retry, when they could not be loaded. */
  errorMessage: string;
}) {
  const cards = items(isError ? undefined : stats);
  return (
    <section aria-labelledby={headingId} aria-busy={isLoading}>
      <h2 id={headingId} className="sr-only">
        {heading}
      </h2>
      {isError && (
        <StatLoadError
          message={errorMessage}
          isRetrying={isRetrying}
          onRetry={onRetry}
          className="mb-4 flex flex-wrap items-center gap-3"
        />
      )}
      <div
        className={cn(
          'grid grid-cols-2 gap-3 sm:gap-4',
          cards.length === 6 ? 'lg:grid-cols-3 xl:grid-cols-6' : 'lg:grid-cols-4',
        )}
      >
        {cards.map((item) => (
          <StatCard key={item.testId} {...item} isLoading={isLoading} />
        ))}
      </div>
    </section>
  );
}
