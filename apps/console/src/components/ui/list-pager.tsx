import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';

/**
 * "Showing a–b of N" for one page of a list; "Showing 0 of 0" when nothing matches; "of N+"
 * when N is a floor (a search matched more than the server counts).
 */
export function describePage({
  page,
  pageSize,
  rowCount,
  totalCount,
  isTotalCapped = false,
}: {
  page: number;
  pageSize: number;
  rowCount: number;
  totalCount: number;
  isTotalCapped?: boolean | undefined;
}): string {
  const total = `${totalCount}${isTotalCapped ? '+' : ''}`;
  if (rowCount === 0) return `Showing 0 of ${total}`;
  const first = (page - 1) * pageSize + 1;
  return `Showing ${first}–${first + rowCount - 1} of ${total}`;
}

/** Previous/next paging under a list whose total comes from the server's X-Total-Count. */
export function ListPager({
  page,
  pageSize,
  rowCount,
  totalCount,
  isTotalCapped,
  onPageChange,
  label,
}: {
  page: number;
  pageSize: number;
  rowCount: number;
  totalCount: number;
  isTotalCapped?: boolean | undefined;
  onPageChange: (page: number) => void;
  /** What is paged, for screen readers ("Users pages"). */
  label: string;
}) {
  const hasPrevious = page > 1;
  const hasNext = page * pageSize < totalCount;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-2 pt-4">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {describePage({ page, pageSize, rowCount, totalCount, isTotalCapped })}
      </p>
      <div className="flex items-center gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={!hasPrevious}
          onClick={() => onPageChange(page - 1)}
        >
          <ChevronLeft className="size-4" aria-hidden="true" />
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={!hasNext}
          onClick={() => onPageChange(page + 1)}
        >
          Next
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
