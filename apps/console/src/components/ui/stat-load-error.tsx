import { RefreshButton } from './refresh-button.tsx';

/** Why a group of figures is unknown, with a Retry that refetches them. */
export function StatLoadError({
  message,
  isRetrying,
  onRetry,
  className,
}: {
  message: string;
  isRetrying: boolean;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div role="alert" className={className ?? 'flex flex-wrap items-center gap-3'}>
      <p className="text-sm text-destructive">{message}</p>
      <RefreshButton isRefreshing={isRetrying} onRefresh={onRetry}>
        Retry
      </RefreshButton>
    </div>
  );
}
