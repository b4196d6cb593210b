import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/utils.ts';

/** An application is Active or Inactive by isActive. */
export function ApplicationStatusBadge({
  isActive,
  activeLabel = 'Active',
  className,
}: {
  isActive: boolean;
  /** The management page's Security Settings card says "Online" instead. */
  activeLabel?: string;
  className?: string;
}) {
  return (
    <Badge variant={isActive ? 'success' : 'muted'} className={className}>
      <span
        aria-hidden="true"
        className={cn('size-1.5 rounded-full', isActive ? 'bg-success' : 'bg-muted-foreground')}
      />
      {isActive ? activeLabel : 'Inactive'}
    </Badge>
  );
}
