import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ListPager } from '@/components/ui/list-pager.tsx';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { TableSkeleton } from '@/components/ui/table-skeleton.tsx';
import type { PagedList } from '@/lib/paged-list.ts';

/**
 * The four states of one page of a server list, the same in every list: a skeleton while the
 * first page loads, the error with Try Again, the empty state when nothing matches at all,
 * else the rows (drawn by `children`) with the pager under them.
 */
export function PagedQueryView<Row>({
  query,
  loadingLabel,
  errorTitle,
  describeError,
  empty,
  pagerLabel,
  onPageChange,
  children,
}: {
  query: UseQueryResult<PagedList<Row>>;
  loadingLabel: string;
  errorTitle: string;
  describeError: (error: Error) => string;
  empty: ReactNode;
  pagerLabel: string;
  onPageChange: (page: number) => void;
  children: (rows: Row[]) => ReactNode;
}) {
  if (query.isPending) return <TableSkeleton label={loadingLabel} />;
  if (query.isError) {
    return (
      <LoadErrorState
        title={errorTitle}
        description={describeError(query.error)}
        isRetrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const { rows, page, pageSize, totalCount } = query.data;
  if (totalCount === 0) return empty;
  return (
    <>
      {children(rows)}
      <ListPager
        label={pagerLabel}
        page={page}
        pageSize={pageSize}
        rowCount={rows.length}
        totalCount={totalCount}
        onPageChange={onPageChange}
      />
    </>
  );
}
