import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button.tsx';
import { cn } from '@/lib/utils.ts';

/** An outline button that refetches a query; its icon spins while the query is fetching. */
export function RefreshButton({
  isRefreshing,
  onRefresh,
  children,
}: {
  isRefreshing: boolean;
  onRefresh: () => void;
  children: ReactNode;
}) {
  return (
    <Button variant="outline" onClick={onRefresh} disabled={isRefreshing}>
      <RefreshCw className={cn(isRefreshing && 'animate-spin')} aria-hidden="true" />
      {children}
    </Button>
  );
}
