import type { LucideIcon } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { UnknownFigure } from '@/components/ui/unknown-figure.tsx';
import { IconTile } from '@/components/ui/icon-tile.tsx';

/** What formatStatCount gives for a count that is not known; the card renders it as unknown. */
export const UNKNOWN_STAT_VALUE = '—';

export function StatCard({
  title,
  value,
  description,
  icon: Icon,
  isLoading,
  testId,
}: {
  title: string;
  value: string;
  description: string;
  icon: LucideIcon;
  isLoading: boolean;
  testId: string;
}) {
  return (
    <Card className="gap-3 py-4 sm:py-6">
      <CardHeader className="flex-row items-center justify-between gap-2 px-4 sm:px-6">
        <CardTitle className="min-w-0 text-sm leading-snug font-medium text-muted-foreground">
          {title}
        </CardTitle>
        <IconTile icon={Icon} />
      </CardHeader>
      <CardContent className="flex flex-col gap-1 px-4 sm:px-6">
        {isLoading ? (
          <>
            <Skeleton className="h-8 w-20" aria-hidden="true" />
            <span className="sr-only">Loading</span>
          </>
        ) : (
          <p
            data-testid={testId}
            className="text-2xl font-bold tracking-tight tabular-nums sm:text-3xl"
          >
            {value === UNKNOWN_STAT_VALUE ? <UnknownFigure /> : value}
          </p>
        )}
        <p className="text-xs text-muted-foreground">{description}</p>
      </CardContent>
    </Card>
  );
}

const countFormat = new Intl.NumberFormat('en-US');

/** A count as a stat card shows it: grouped digits, or a dash while it is unknown. */
export function formatStatCount(count: number | null | undefined): string {
  return count === undefined || count === null ? UNKNOWN_STAT_VALUE : countFormat.format(count);
}
