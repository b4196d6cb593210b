import { Badge, type BadgeVariant } from '@/components/ui/badge.tsx';
import type { AppUserStatus } from './app-user-display.ts';

const STATUS_VARIANTS: Record<AppUserStatus | 'Paused', BadgeVariant> = {
  Active: 'success',
  Paused: 'warning',
  Expired: 'danger',
  Inactive: 'muted',
};

export function AppUserStatusBadge({
  status,
  className,
}: {
  status: AppUserStatus;
  className?: string;
}) {
  return (
    <Badge variant={STATUS_VARIANTS[status]} className={className}>
      {status}
    </Badge>
  );
}
