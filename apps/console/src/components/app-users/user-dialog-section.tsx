import type { UseQueryResult } from '@tanstack/react-query';
import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { RefreshButton } from '@/components/ui/refresh-button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { cn } from '@/lib/utils.ts';

/** Whose holdings a section lists: the end user the Edit User dialog edits. */
export interface UserSectionProps {
  applicationId: number;
  userId: string;
  username: string;
}

/**
 * A section's own fields act on Enter, as a form's would, without a form of their own: each
 * section saves through its own buttons, apart from the Edit User dialog's account form.
 */
export function onEnter(action: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    action();
  };
}

/**
 * One section of the Edit User dialog about what the user holds (devices, subscriptions,
 * variables), named by its heading: its description and actions, then what `query` reads:
 * skeletons while it loads, the server's reason with Try Again when it fails, else `children`.
 * Each change in a section is saved at once, not with the account form (the dialog says so
 * above the sections).
 */
export function UserDialogSection<Data>({
  title,
  titleDetail,
  description,
  actions,
  query,
  loadingLabel,
  fetchErrorMessage,
  skeletonClassName = 'h-10',
  className,
  children,
}: {
  title: string;
  /** Beside the heading, such as a count against a limit. */
  titleDetail?: ReactNode;
  description: ReactNode;
  /** Beside the heading and description, such as Remove all. */
  actions?: ReactNode;
  query: UseQueryResult<Data>;
  loadingLabel: string;
  /** What the error says when the server gives no reason. */
  fetchErrorMessage: string;
  skeletonClassName?: string;
  className?: string;
  children: (data: Data) => ReactNode;
}) {
  const id = useId();
  const heading = (
    <h3 id={`${id}-heading`} className="text-sm font-semibold">
      {title}
    </h3>
  );
  const header = (
    <div className="grid gap-1">
      {titleDetail === undefined ? (
        heading
      ) : (
        <div className="flex flex-wrap items-baseline gap-x-2">
          {heading}
          {titleDetail}
        </div>
      )}
      <p className="text-xs text-muted-foreground">{description}</p>
    </div>
  );

  return (
    <section
      aria-labelledby={`${id}-heading`}
      className={cn('grid gap-3 rounded-lg border border-border p-4', className)}
    >
      {actions === undefined ? (
        header
      ) : (
        <div className="flex flex-wrap items-start justify-between gap-2">
          {header}
          {actions}
        </div>
      )}

      {query.isPending ? (
        <div role="status" aria-label={loadingLabel} className="grid gap-2">
          <Skeleton className={cn('w-full', skeletonClassName)} aria-hidden="true" />
          <Skeleton className={cn('w-full', skeletonClassName)} aria-hidden="true" />
        </div>
      ) : query.isError ? (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-2 text-sm text-destructive"
        >
          {getErrorToastMessage(query.error, fetchErrorMessage)}
          <RefreshButton isRefreshing={query.isFetching} onRefresh={() => void query.refetch()}>
            Try Again
          </RefreshButton>
        </div>
      ) : (
        children(query.data)
      )}
    </section>
  );
}
