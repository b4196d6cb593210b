import type { ApiToken, Application } from '@latchkey/contracts';
import { createdColumn } from '@/components/applications/created-column.ts';
import { rowActionsColumn, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { getTokenApplicationNames } from './api-token-display.ts';
import {
  RevokeTokenButton,
  TokenApplications,
  TokenExpiry,
  TokenLastUse,
  TokenPrefix,
  TokenScopeBadges,
} from './api-token-parts.tsx';

/** What the token list shows beside the tokens, on a table row or a phone's card alike. */
export interface ApiTokenListProps {
  /** The owner's applications, to name a restricted token's; undefined while they load. */
  applications: readonly Application[] | undefined;
  /** The token being revoked; its button waits for it. */
  busyTokenId: string | null;
  /** Expiry and last use are read against this time, the same for every row. */
  now: number;
  onRevoke: (token: ApiToken) => void;
}

/** The API tokens on a wide screen, one row each, Revoke pinned at the right. */
export function apiTokensTable({
  applications,
  busyTokenId,
  now,
  onRevoke,
}: ApiTokenListProps): DataTableDefinition<ApiToken> {
  return {
    label: 'API tokens',
    getRowKey: (token) => token.id,
    getRowProps: (token) => ({ 'data-testid': `api-token-row-${token.id}` }),
    columns: [
      {
        header: 'Name',
        cellClassName: 'max-w-56',
        cell: (token) => <span className="font-medium break-words">{token.name}</span>,
      },
      { header: 'Token', cell: (token) => <TokenPrefix prefix={token.prefix} /> },
      { header: 'Scopes', cell: (token) => <TokenScopeBadges scopes={token.scopes} /> },
      {
        header: 'Applications',
        cellClassName: 'max-w-56',
        cell: (token) => (
          <TokenApplications names={getTokenApplicationNames(token, applications)} />
        ),
      },
      createdColumn(),
      {
        header: 'Expires',
        cellClassName: 'whitespace-nowrap',
        cell: (token) => <TokenExpiry token={token} now={now} />,
      },
      {
        header: 'Last used',
        cellClassName: 'min-w-32',
        cell: (token) => <TokenLastUse token={token} now={now} />,
      },
      rowActionsColumn(
        (token) => (
          <RevokeTokenButton token={token} isBusy={token.id === busyTokenId} onRevoke={onRevoke} />
        ),
        { cellClassName: 'text-right whitespace-nowrap' },
      ),
    ],
  };
}
