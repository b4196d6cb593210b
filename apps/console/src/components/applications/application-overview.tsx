import type { Application, ApplicationStats } from '@latchkey/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Activity, Info, ShieldCheck } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { StatLoadError } from '@/components/ui/stat-load-error.tsx';
import { statTestId } from '@/components/ui/stat-grid.tsx';
import { UnknownFigure } from '@/components/ui/unknown-figure.tsx';
import { cn } from '@/lib/utils.ts';
import { formatDateTime, previewApiKey } from './application-display.ts';
import { ApplicationStatusBadge } from './application-status-badge.tsx';
import { IconTile } from '@/components/ui/icon-tile.tsx';

const countFormat = new Intl.NumberFormat('en-US');
const count = (value: number) => countFormat.format(value);
const percentFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** What a screen reader hears for a success rate that cannot exist yet. */
export const NO_REQUESTS_LABEL = 'No requests yet';

/**
 * The success rate as a percent, or null when there is no rate to show: with no requests the
 * server answers 0, which would read as "every login failed". A rate above 0 is shown even
 * while the request count is still 0, since that count may be written a moment later.
 */
export function formatSuccessRate(
  stats: Pick<ApplicationStats, 'loginSuccessRate' | 'totalApiRequests'>,
): string | null {
  const { loginSuccessRate, totalApiRequests } = stats;
  if (!Number.isFinite(loginSuccessRate)) return null;
  if (totalApiRequests === 0 && loginSuccessRate === 0) return null;
  return `${percentFormat.format(loginSuccessRate)}%`;
}

/** The Success Rate figure: the percent, or a dash that screen readers hear as no requests. */
function SuccessRate({ stats }: { stats: ApplicationStats }) {
  const successRate = formatSuccessRate(stats);
  return successRate ?? <UnknownFigure label={NO_REQUESTS_LABEL} />;
}

function OverviewCard({
  title,
  icon: Icon,
  badge,
  footer,
  children,
}: {
  title: string;
  icon: LucideIcon;
  badge?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card className="gap-4">
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle className="flex items-center gap-2 text-base">
          <IconTile icon={Icon} />
          {title}
        </CardTitle>
        {badge}
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 text-sm">{children}</dl>
        {footer}
      </CardContent>
    </Card>
  );
}

function Item({
  term,
  children,
  className,
}: {
  term: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className="flex min-h-8 items-center justify-between gap-4">
      <dt className="shrink-0 text-muted-foreground">{term}</dt>
      <dd className={cn('min-w-0 text-right font-medium', className)}>{children}</dd>
    </div>
  );
}

type StatState = 'loading' | 'unknown' | 'known';

/** A figure from the stats: a skeleton while loading, a dash when it failed, never a made-up 0. */
function StatValue({ state, children }: { state: StatState; children: ReactNode }) {
  if (state === 'loading') {
    return (
      <>
        <Skeleton className="ml-auto h-5 w-14" aria-hidden="true" />
        <span className="sr-only">Loading</span>
      </>
    );
  }
  return state === 'unknown' ? <UnknownFigure /> : children;
}

/** A setting that is on or off, in words of its own ("Enabled", "Required"), green when on. */
function SettingItem({
  term,
  isOn,
  on,
  off,
}: {
  term: string;
  isOn: boolean;
  on: string;
  off: string;
}) {
  return (
    <Item term={term}>
      <span className={isOn ? 'text-success' : 'text-muted-foreground'}>{isOn ? on : off}</span>
    </Item>
  );
}

/** A figure from the stats as one row of a card, in tabular digits. */
function StatItem({
  term,
  testId,
  state,
  children,
}: {
  term: string;
  testId?: string;
  state: StatState;
  children: ReactNode;
}) {
  return (
    <Item term={term} className="tabular-nums">
      <span data-testid={testId}>
        <StatValue state={state}>{children}</StatValue>
      </span>
    </Item>
  );
}

/** The Real-time Statistics card's figures, in order, each read from the stats. */
const LIVE_FIGURES: readonly { term: string; figure: (stats: ApplicationStats) => ReactNode }[] = [
  { term: 'Live Sessions', figure: (stats) => count(stats.activeSessions) },
  { term: 'API Requests', figure: (stats) => count(stats.totalApiRequests) },
  { term: 'Success Rate', figure: (stats) => <SuccessRate stats={stats} /> },
  { term: 'Unused Keys', figure: (stats) => count(stats.unusedLicenses) },
  { term: 'Used Keys', figure: (stats) => count(stats.usedLicenses) },
];

/** The Overview tab's three cards. */
export function ApplicationOverview({
  application,
  statsQuery,
}: {
  application: Application;
  statsQuery: UseQueryResult<ApplicationStats>;
}) {
  // From the stats only: the user list is one page, so it cannot be counted.
  const { data, isPending, error: statsError, isFetching, refetch } = statsQuery;
  // After a failed poll the last figures may no longer be true (they are "live"): unknown.
  const stats = statsError ? undefined : data;
  const statState: StatState = stats ? 'known' : isPending && !statsError ? 'loading' : 'unknown';

  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <OverviewCard title="Application Info" icon={Info}>
        <Item term="Name" className="truncate">
          {application.name}
        </Item>
        <Item term="Version">
          <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
            {application.version}
          </code>
        </Item>
        <Item term="Description" className="line-clamp-2 font-normal">
          {application.description || (
            <span className="text-muted-foreground italic">No description</span>
          )}
        </Item>
        <Item term="Created">{formatDateTime(application.createdAt)}</Item>
        <Item term="Last Updated">{formatDateTime(application.updatedAt)}</Item>
        <Item term="API Key">
          <span className="inline-flex items-center gap-1">
            <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
              {previewApiKey(application.apiKey)}
            </code>
            <CopyButton value={application.apiKey} label="Copy API key" />
          </span>
        </Item>
      </OverviewCard>

      <OverviewCard title="Security Settings" icon={ShieldCheck}>
        <Item term="Status">
          <ApplicationStatusBadge isActive={application.isActive} activeLabel="Online" />
        </Item>
        <SettingItem
          term="HWID Lock"
          isOn={application.hwidLockEnabled}
          on="Enabled"
          off="Disabled"
        />
        <SettingItem
          term="Licence Key"
          isOn={application.licenseRequired}
          on="Required"
          off="Optional"
        />
        <Item term="Sessions per User" className="tabular-nums">
          {application.maxSessionsPerUser === null ? (
            <span className="text-muted-foreground">Unlimited</span>
          ) : (
            countFormat.format(application.maxSessionsPerUser)
          )}
        </Item>
        <Item term="Devices per User" className="tabular-nums">
          {countFormat.format(application.maxDevices)}
        </Item>
        <SettingItem term="Portal" isOn={application.portalEnabled} on="On" off="Off" />
        <StatItem term="User Count" state={statState}>
          {stats && countFormat.format(stats.totalUsers)}
        </StatItem>
        <StatItem term="Active Users" state={statState}>
          {stats && countFormat.format(stats.activeUsers)}
        </StatItem>
      </OverviewCard>

      <OverviewCard
        title="Real-time Statistics"
        icon={Activity}
        badge={
          <span className="inline-flex items-center gap-1.5 text-xs font-medium text-success">
            <span className="relative flex size-2" aria-hidden="true">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-success opacity-60 motion-reduce:hidden" />
              <span className="relative inline-flex size-2 rounded-full bg-success" />
            </span>
            Live
          </span>
        }
        footer={
          statsError && (
            <StatLoadError
              message={statsError.message}
              isRetrying={isFetching}
              onRetry={() => void refetch()}
              className="mt-4 flex flex-wrap items-center justify-between gap-2"
            />
          )
        }
      >
        {LIVE_FIGURES.map(({ term, figure }) => (
          <StatItem key={term} term={term} testId={statTestId(term)} state={statState}>
            {stats && figure(stats)}
          </StatItem>
        ))}
        <Item term="Last Activity">
          <StatValue state={statState}>
            {stats &&
              (stats.lastActivity ? (
                formatDateTime(stats.lastActivity)
              ) : (
                <span className="font-normal text-muted-foreground">No recent activity</span>
              ))}
          </StatValue>
        </Item>
      </OverviewCard>
    </div>
  );
}
