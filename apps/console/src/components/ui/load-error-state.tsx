import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from './empty-state.tsx';
import { RefreshButton } from './refresh-button.tsx';

/** Shown in place of a list that could not be loaded, with a "Try Again" button. */
export function LoadErrorState({
  title,
  description,
  isRetrying,
  onRetry,
}: {
  title: string;
  description: ReactNode;
  isRetrying: boolean;
  onRetry: () => void;
}) {
  return (
    <EmptyState
      icon={CircleAlert}
      tone="destructive"
      title={title}
      description={description}
      action={
        <RefreshButton isRefreshing={isRetrying} onRefresh={onRetry}>
          Try Again
        </RefreshButton>
      }
    />
  );
}
