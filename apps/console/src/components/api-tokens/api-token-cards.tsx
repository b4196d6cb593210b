import type { ApiToken } from '@latchkey/contracts';
import { formatDateTime, formatShortDate } from '@/components/applications/application-display.ts';
import type { ReactNode } from 'react';
import { getTokenApplicationNames } from './api-token-display.ts';
import {
  RevokeTokenButton,
  TokenApplications,
  TokenExpiry,
  TokenLastUse,
  TokenPrefix,
  TokenScopeBadges,
} from './api-token-parts.tsx';
import type { ApiTokenListProps } from './api-tokens-table.tsx';

/**
 * The API tokens on a phone, one card each. Eight columns do not fit 390 px; a card shows
 * every field without sideways scrolling, with Revoke in reach of a thumb.
 */
export function ApiTokenCards({
  tokens,
  applications,
  busyTokenId,
  now,
  onRevoke,
}: ApiTokenListProps & { tokens: readonly ApiToken[] }) {
  return (
    <ul aria-label="API tokens" className="grid gap-3">
      {tokens.map((token) => (
        <li
          key={token.id}
          data-testid={`api-token-card-${token.id}`}
          aria-label={token.name}
          className="grid gap-3 rounded-lg border border-border bg-card p-4"
        >
          <div className="flex min-w-0 flex-col gap-1">
            <span className="font-medium break-words">{token.name}</span>
            <TokenPrefix prefix={token.prefix} />
          </div>
          <TokenScopeBadges scopes={token.scopes} />
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
            <CardField label="Applications">
              <TokenApplications names={getTokenApplicationNames(token, applications)} />
            </CardField>
            <CardField label="Created">
              <time dateTime={token.createdAt} title={formatDateTime(token.createdAt)}>
                {formatShortDate(token.createdAt)}
              </time>
            </CardField>
            <CardField label="Expires">
              <TokenExpiry token={token} now={now} />
            </CardField>
            <CardField label="Last used">
              <TokenLastUse token={token} now={now} />
            </CardField>
          </dl>
          <RevokeTokenButton
            token={token}
            isBusy={token.id === busyTokenId}
            onRevoke={onRevoke}
            className="w-fit"
          />
        </li>
      ))}
    </ul>
  );
}

function CardField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}
