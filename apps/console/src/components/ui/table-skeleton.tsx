import { Skeleton } from '@/components/ui/skeleton.tsx';

/** Placeholder rows about as tall as real ones, so the table does not jump when data lands. */
export function TableSkeleton({ rows = 3, label }: { rows?: number; label: string }) {
  return (
    <div role="status" aria-label={label} className="grid gap-2 py-2">
      <Skeleton className="h-8 w-full opacity-60" />
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-12 w-full" />
      ))}
    </div>
  );
}
