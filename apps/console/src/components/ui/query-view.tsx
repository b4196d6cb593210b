import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';

/**
 * What one query reads, in its three states: skeleton bars (one per class list in `skeletons`)
 * in a busy status region that screen readers hear as `loadingLabel` while it loads; when it fails, `errorTitle` with the server's
 * reason (else `fetchErrorMessage`) and Try Again; else `children` given the data.
 */
export function QueryView<Data>({
  query,
  loadingLabel,
  loadingClassName,
  skeletons,
  errorTitle,
  fetchErrorMessage,
  children,
}: {
  query: UseQueryResult<Data>;
  loadingLabel: string;
  /** Lays out the skeleton bars as the content they stand for. */
  loadingClassName?: string;
  /** Each bar's classes: its size, such as `h-96 w-full`. */
  skeletons: readonly string[];
  errorTitle: string;
  /** What the error says when the server gives no reason. */
  fetchErrorMessage: string;
  children: (data: Data) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <div role="status" aria-busy="true" className={loadingClassName}>
        <span className="sr-only">{loadingLabel}</span>
        {skeletons.map((className, index) => (
          <Skeleton key={index} className={className} />
        ))}
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadErrorState
        title={errorTitle}
        description={getErrorToastMessage(query.error, fetchErrorMessage)}
        isRetrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return children(query.data);
}
