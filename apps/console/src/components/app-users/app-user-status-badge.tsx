import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/utils.ts';
import type { AppUserStatus } from './app-user-display.ts';

const STATUS_STYLES: Record<AppUserStatus | 'Paused', string> = {
  Active: 'border-success/30 bg-success/10 text-success',
  Paused: 'border-warning/40 bg-warning/15 text-warning',
  Expired: 'border-destructive/30 bg-destructive/10 text-destructive',
  Inactive: 'border-border bg-muted text-muted-foreground',
};

export function AppUserStatusBadge({
  status,
  className,
}: {
  status: AppUserStatus;
  className?: string;
}) {
  return (
    <Badge variant="outline" className={cn(STATUS_STYLES[status], className)}>
      {status}
    </Badge>
  );
}
