import type { AdminUser } from '@latchkey/contracts';
import { Crown, Pencil, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  formatPermissionCount,
  getAccountDisplayName,
  roleLabels,
} from '@/lib/site-admin-access.ts';

/** One account of the site, with Edit and (where allowed) Delete. */
export function SiteAccountCard({
  account,
  isCurrentUser,
  canEdit,
  canDelete,
  isBusy,
  onEdit,
  onDelete,
}: {
  account: AdminUser;
  isCurrentUser: boolean;
  canEdit: boolean;
  canDelete: boolean;
  /** A deletion of this account is under way. */
  isBusy: boolean;
  onEdit: (account: AdminUser) => void;
  onDelete: (account: AdminUser) => void;
}) {
  const displayName = getAccountDisplayName(account);
  return (
    <li
      data-testid={`site-account-${account.id}`}
      aria-label={displayName}
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex min-w-0 flex-col gap-1.5">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          {account.role === 'owner' && (
            <Crown className="size-4 shrink-0 text-warning" aria-label="Site owner" role="img" />
          )}
          <span className="min-w-0 font-medium break-all">{displayName}</span>
          {isCurrentUser && <Badge variant="secondary">You</Badge>}
        </div>
        <span className="text-sm break-all text-muted-foreground">{account.email}</span>
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant={account.role === 'owner' ? 'warning' : 'outline'}>
            {roleLabels[account.role]}
          </Badge>
          <Badge variant={account.isActive ? 'success' : 'muted'}>
            {account.isActive ? 'Active' : 'Inactive'}
          </Badge>
          <span className="text-xs text-muted-foreground">{formatPermissionCount(account)}</span>
        </div>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={!canEdit}
          aria-label={`Edit ${displayName}`}
          title={canEdit ? undefined : 'Only a site owner can change an owner.'}
          onClick={() => onEdit(account)}
        >
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        {canDelete && (
          <Button
            variant="outline"
            size="sm"
            disabled={isBusy}
            aria-label={`Delete ${displayName}`}
            onClick={() => onDelete(account)}
          >
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        )}
      </div>
    </li>
  );
}
