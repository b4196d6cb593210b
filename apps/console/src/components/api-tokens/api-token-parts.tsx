import type { ApiToken, ApiTokenScope } from '@latchkey/contracts';
import { Trash2 } from 'lucide-react';
import { formatDateTime, formatShortDate } from '@/components/applications/application-display.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { cn } from '@/lib/utils.ts';
import {
  ALL_APPLICATIONS_LABEL,
  formatRelativeTime,
  formatTokenPrefix,
  isTokenExpired,
  splitScopeBadges,
} from './api-token-display.ts';

/**
 * The pieces a token's row (desktop) and its card (phone) share, so both say the same thing in
 * the same words.
 */

export function TokenPrefix({ prefix }: { prefix: string }) {
  return (
    <code className="font-mono text-[0.8125rem] whitespace-nowrap text-muted-foreground">
      {formatTokenPrefix(prefix)}
    </code>
  );
}

/** At most 3 scope badges, then '+N more' naming the rest on hover. */
export function TokenScopeBadges({ scopes }: { scopes: readonly ApiTokenScope[] }) {
  const { shown, hidden } = splitScopeBadges(scopes);
  return (
    <div className="flex max-w-80 flex-wrap gap-1">
      {shown.map((scope) => (
        <Badge key={scope} variant="secondary" className="font-mono">
          {scope}
        </Badge>
      ))}
      {hidden.length > 0 && (
        <Badge variant="outline" title={hidden.join(', ')}>
          +{hidden.length} more
        </Badge>
      )}
    </div>
  );
}

/** 'All applications', or the names of the applications it is restricted to. */
export function TokenApplications({
  names,
  className,
}: {
  names: readonly string[] | null;
  className?: string;
}) {
  if (names === null) {
    return <span className={cn('text-muted-foreground', className)}>{ALL_APPLICATIONS_LABEL}</span>;
  }
  return (
    <span className={cn('break-words', className)} title={names.join(', ')}>
      {names.join(', ')}
    </span>
  );
}

/** 'Never', or the date (its time on hover), with an 'Expired' badge once it has passed. */
export function TokenExpiry({ token, now }: { token: Pick<ApiToken, 'expiresAt'>; now: number }) {
  if (token.expiresAt === null) return <span className="text-muted-foreground">Never</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <time
        dateTime={token.expiresAt}
        title={formatDateTime(token.expiresAt)}
        className="whitespace-nowrap"
      >
        {formatShortDate(token.expiresAt)}
      </time>
      {isTokenExpired(token, now) && <Badge variant="danger">Expired</Badge>}
    </span>
  );
}

/** When and from where the token was last used, or 'Never used'. */
export function TokenLastUse({
  token,
  now,
}: {
  token: Pick<ApiToken, 'lastUsedAt' | 'lastUsedIp'>;
  now: number;
}) {
  if (token.lastUsedAt === null) {
    return <span className="text-muted-foreground">Never used</span>;
  }
  return (
    <span className="grid gap-0.5">
      <time dateTime={token.lastUsedAt} title={formatDateTime(token.lastUsedAt)}>
        {formatRelativeTime(token.lastUsedAt, now)}
      </time>
      {token.lastUsedIp && (
        <span className="font-mono text-xs break-all text-muted-foreground">
          from {token.lastUsedIp}
        </span>
      )}
    </span>
  );
}

/** The destructive action of a token; its name is in the button's accessible name. */
export function RevokeTokenButton({
  token,
  isBusy,
  onRevoke,
  className,
}: {
  token: ApiToken;
  isBusy: boolean;
  onRevoke: (token: ApiToken) => void;
  className?: string;
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={isBusy}
      aria-label={`Revoke ${token.name}`}
      className={cn(
        // The icon says it destroys; the words keep the body colour, which reads in both themes.
        'hover:border-destructive/40 hover:bg-destructive/10 hover:text-destructive [&_svg]:text-destructive',
        className,
      )}
      onClick={() => onRevoke(token)}
    >
      <Trash2 aria-hidden="true" />
      Revoke
    </Button>
  );
}
