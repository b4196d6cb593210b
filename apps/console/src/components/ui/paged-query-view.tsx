import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ListPager } from '@/components/ui/list-pager.tsx';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { TableSkeleton } from '@/components/ui/table-skeleton.tsx';
import type { PagedList } from '@/lib/paged-list.ts';

/**
 * How a list arrives: a page at a time (paged by the server, with a pager under the rows), or
 * whole in one answer (a short list such as an application's plans, with no pager).
 */
export type ListQuery<Row> =
  | {
      query: UseQueryResult<PagedList<Row>>;
      /** What is paged, for screen readers ("Users pages"). */
      pagerLabel: string;
      onPageChange: (page: number) => void;
    }
  | {
      query: UseQueryResult<readonly Row[]>;
      pagerLabel?: never;
      onPageChange?: never;
    };

/** What a list shows in each state, beside the query itself. */
export type PagedQueryViewProps<Row> = ListQuery<Row> & {
  loadingLabel: string;
  errorTitle: string;
  describeError: (error: Error) => string;
  empty: ReactNode;
  /**
   * False draws an empty page as the rows (none) and the pager ("Showing 0 of 0") instead of
   * `empty`: lists whose empty state invites adding the first entry pass false while a search
   * is active, as no match is not the same as nothing at all.
   */
  canShowEmptyState?: boolean;
  /**
   * Actions above the list (a Refresh button) once a page has loaded, shown with the empty state
   * or the rows but not in place of the skeleton or the error, which have their own.
   */
  toolbar?: ReactNode;
};

/**
 * The four states of a server list, the same in every list: a skeleton while the first page
 * loads, the error with Try Again, the empty state when nothing matches at all, else the rows
 * (drawn by `children`) with the pager under them when the list is paged.
 */
export function PagedQueryView<Row>({
  query,
  loadingLabel,
  errorTitle,
  describeError,
  empty,
  canShowEmptyState = true,
  toolbar,
  pagerLabel,
  onPageChange,
  children,
}: PagedQueryViewProps<Row> & {
  children: (rows: readonly Row[]) => ReactNode;
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
  const { data } = query;
  const page = 'rows' in data ? data : null;
  const rows = 'rows' in data ? data.rows : data;
  const isEmpty = page ? page.totalCount === 0 : rows.length === 0;
  const list =
    isEmpty && canShowEmptyState ? (
      empty
    ) : (
      <>
        {children(rows)}
        {page && pagerLabel !== undefined && onPageChange && (
          <ListPager
            label={pagerLabel}
            page={page.page}
            pageSize={page.pageSize}
            rowCount={rows.length}
            totalCount={page.totalCount}
            isTotalCapped={page.isTotalCapped}
            onPageChange={onPageChange}
          />
        )}
      </>
    );
  if (toolbar === undefined) return list;
  return (
    // One box for the toolbar and its list, spaced as one unit whatever lays out the parent;
    // min-w-0 lets a wide table scroll inside it rather than widen a grid parent (a dialog).
    <div className="grid min-w-0 gap-3">
      {toolbar}
      {list}
    </div>
  );
}
