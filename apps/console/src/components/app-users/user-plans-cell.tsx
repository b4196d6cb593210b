import type { AppUserListRow, Subscription } from '@latchkey/contracts';
import { formatDateTime, formatShortDate } from '@/components/applications/application-display.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/utils.ts';

/** "until 3/14/2025", or "lifetime": short enough for a table row; the title has the time. */
export function describeSubscriptionExpiry(expiresAt: string | null): string {
  return expiresAt ? `until ${formatShortDate(expiresAt)}` : 'lifetime';
}

function SubscriptionBadge({ subscription }: { subscription: Subscription }) {
  const { planName, expiresAt, isActive } = subscription;
  const expiry = describeSubscriptionExpiry(expiresAt);
  return (
    <Badge
      variant={isActive ? 'outline' : 'muted'}
      data-expired={!isActive || undefined}
      // A long plan name is cut rather than widening the row; the title keeps it whole, and
      // gives the time of day the short date leaves out.
      title={`${planName}, ${expiresAt ? `until ${formatDateTime(expiresAt)}` : expiry}`}
      className={cn('max-w-full', !isActive && 'line-through')}
    >
      <span className="min-w-0 truncate">{planName}</span>{' '}
      <span className={cn('shrink-0 font-normal', isActive && 'text-muted-foreground')}>
        {expiry}
      </span>
      {/* The strike-through is only seen: the state is also said. */}
      {!isActive && <span className="sr-only"> (expired)</span>}
    </Badge>
  );
}

/**
 * What a user holds, in their users-table row: each subscription (an expired one muted and
 * struck) and below them the codes the active ones grant.
 */
export function UserPlansCell({ user }: { user: AppUserListRow }) {
  const { username, subscriptions, entitlements } = user;
  if (subscriptions.length === 0) {
    return <span className="text-sm text-muted-foreground italic">None</span>;
  }
  return (
    // A width cap, so on a phone the badges wrap inside the table's own scroll box.
    <div className="flex max-w-64 min-w-36 flex-col gap-1.5">
      <ul aria-label={`Plans of ${username}`} className="flex flex-wrap gap-1">
        {subscriptions.map((subscription) => (
          <li key={subscription.id} className="flex max-w-full">
            <SubscriptionBadge subscription={subscription} />
          </li>
        ))}
      </ul>
      {entitlements.length > 0 && (
        <ul aria-label={`Entitlements of ${username}`} className="flex flex-wrap gap-1">
          {entitlements.map((code) => (
            <li key={code} className="max-w-full">
              <code className="block rounded bg-muted px-1.5 py-0.5 font-mono text-xs break-all">
                {code}
              </code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
