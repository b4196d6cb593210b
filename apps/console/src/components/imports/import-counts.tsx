import { cn } from '@/lib/utils.ts';
import { formatCount } from './import-display.ts';

export interface ImportCount {
  label: string;
  value: number;
  /** A count the owner should look at (conflicts, unreadable rows) when it is not zero. */
  isWarning?: boolean;
}

/** A row of labelled figures: what a file holds, or what an import did. */
export function ImportCounts({ label, counts }: { label: string; counts: readonly ImportCount[] }) {
  return (
    <dl aria-label={label} className="grid grid-cols-2 gap-2 sm:grid-cols-3">
      {counts.map((count) => (
        <div key={count.label} className="rounded-md border border-border px-3 py-2">
          <dt className="text-xs text-muted-foreground">{count.label}</dt>
          <dd
            className={cn(
              'text-lg font-semibold tabular-nums',
              count.isWarning && count.value > 0 && 'text-warning',
            )}
          >
            {formatCount(count.value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
