import type { UserMeter } from '@latchkey/contracts';
import { RefreshButton } from '@/components/ui/refresh-button.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { METERS_FETCH_ERROR, useUserMeters } from '@/hooks/use-subscriptions.ts';
import { UserDialogSection, type UserSectionProps } from './user-dialog-section.tsx';

/**
 * A meter's use: "20 of 500 used", or with overage "520 used: 500 included, 20 over". The
 * portal words it the same way in its own module (portal/format.ts): sharing one would put a
 * script of its own on every portal page.
 */
export function meterUsageText(meter: Pick<UserMeter, 'used' | 'allowance' | 'overage'>): string {
  const number = new Intl.NumberFormat();
  if (meter.overage > 0) {
    return `${number.format(meter.used)} used: ${number.format(meter.allowance)} included, ${number.format(meter.overage)} over`;
  }
  return `${number.format(meter.used)} of ${number.format(meter.allowance)} used`;
}

/** When a meter starts again at 0, in the console's words. */
export function meterResetText(meter: Pick<UserMeter, 'resetsAt'>): string {
  return meter.resetsAt === null ? 'Does not reset' : `Resets ${formatDateTime(meter.resetsAt)}`;
}

/**
 * The Edit User dialog's usage meters: each meter of the user's active plans, how much of this
 * period's allowance is used (a bar, and the figures in words), and when it refills. Read-only:
 * programs count use; the owner changes allowances on the plan.
 */
export function UserMetersSection({ applicationId, userId, username }: UserSectionProps) {
  const query = useUserMeters(applicationId, userId);
  return (
    <UserDialogSection
      title="Usage"
      description={`What ${username}'s programs have counted against the meters of their plans this period.`}
      actions={
        <RefreshButton isRefreshing={query.isFetching} onRefresh={() => void query.refetch()}>
          Refresh
        </RefreshButton>
      }
      query={query}
      loadingLabel="Loading usage"
      fetchErrorMessage={METERS_FETCH_ERROR}
    >
      {(meters) =>
        meters.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No usage meters: none of this user&apos;s active plans has one.
          </p>
        ) : (
          <ul className="grid gap-3" aria-label={`${username}'s usage meters`}>
            {meters.map((meter) => (
              <li key={meter.name} className="grid gap-1" data-testid={`meter-${meter.name}`}>
                <div className="flex flex-wrap items-baseline justify-between gap-x-2">
                  <span className="font-mono text-sm break-all">{meter.name}</span>
                  <span className="text-xs text-muted-foreground">{meterUsageText(meter)}</span>
                </div>
                <Progress
                  value={
                    meter.allowance === 0
                      ? 100
                      : Math.min(100, (meter.used / meter.allowance) * 100)
                  }
                  aria-label={`${meter.name}: ${meterUsageText(meter)}`}
                />
                <span className="text-xs text-muted-foreground">{meterResetText(meter)}</span>
              </li>
            ))}
          </ul>
        )
      }
    </UserDialogSection>
  );
}
