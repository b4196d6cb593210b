import { Badge, type BadgeVariant } from '@/components/ui/badge.tsx';
import type { AppUserStatus } from './app-user-display.ts';

const STATUS_VARIANTS: Record<AppUserStatus, BadgeVariant> = {
  Active: 'success',
  Paused: 'warning',
  Expired: 'danger',
  Disabled: 'muted',
};

/** An end user's one state, as getAppUserStatus decides it. */
export function AppUserStatusBadge({
  status,
  className,
}: {
  status: AppUserStatus;
  className?: string;
}) {
  return (
    <Badge variant={STATUS_VARIANTS[status]} data-status={status} className={className}>
      {status}
    </Badge>
  );
}
