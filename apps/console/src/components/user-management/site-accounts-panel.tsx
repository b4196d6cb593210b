import { pagingLimits, type AdminUser } from '@latchkey/contracts';
import { SearchX, Users } from 'lucide-react';
import { useState } from 'react';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { ListPager } from '@/components/ui/list-pager.tsx';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { SearchInput } from '@/components/ui/search-input.tsx';
import { TableSkeleton } from '@/components/ui/table-skeleton.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { useDebouncedValue } from '@/hooks/use-debounced-value.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import {
  USERS_FETCH_ERROR,
  useDeleteSiteAccount,
  useSiteAccounts,
} from '@/hooks/use-site-admin.ts';
import { toast } from '@/hooks/use-toast.ts';
import {
  canDeleteAccount,
  canEditAccount,
  getAccountDisplayName,
  getDeletionRefusal,
} from '@/lib/site-admin-access.ts';
import { EditSiteAccountDialog } from './edit-site-account-dialog.tsx';
import { SiteAccountCard } from './site-account-card.tsx';

/** Spec doc 2 §2 /user-management: search, the account cards, Edit and Delete. */
export function SiteAccountsPanel() {
  const { user } = useAuth();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search);
  const accounts = useSiteAccounts({ page, search: settledSearch, isEnabled: user !== null });
  const deleteAccount = useDeleteSiteAccount();
  const editing = useDialogTarget<AdminUser>();
  const deleting = useDialogTarget<AdminUser>();
  const actorId = user?.id ?? '';
  const actor = user?.userPermissions ?? { role: 'user' as const, permissions: [] };

  const confirmDeletion = (target: AdminUser) => {
    const refusal = getDeletionRefusal(actorId, target);
    if (refusal) {
      toast({ ...refusal, variant: 'destructive' });
      return;
    }
    deleteAccount.mutate(target.id);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Site Accounts</CardTitle>
        <CardDescription>
          Everyone who has signed in to this installation. Each account runs its own environment of
          applications and end users.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <SearchInput
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage(1);
          }}
          label="Search users"
          placeholder="Search by email or name..."
          maxLength={pagingLimits.search}
        />
        {accounts.isPending ? (
          <TableSkeleton label="Loading users" />
        ) : accounts.isError ? (
          <LoadErrorState
            title="Error loading users"
            description={USERS_FETCH_ERROR}
            isRetrying={accounts.isFetching}
            onRetry={() => void accounts.refetch()}
          />
        ) : accounts.data.totalCount === 0 ? (
          <EmptyState
            icon={settledSearch.trim() ? SearchX : Users}
            title="No users"
            description="No users found matching your search."
          />
        ) : (
          <>
            <ul
              aria-label="Users"
              aria-busy={accounts.isFetching && accounts.isPlaceholderData}
              className="grid gap-3"
            >
              {accounts.data.rows.map((account) => (
                <SiteAccountCard
                  key={account.id}
                  account={account}
                  isCurrentUser={account.id === actorId}
                  canEdit={canEditAccount(actor, account)}
                  canDelete={canDeleteAccount(actorId, account)}
                  isBusy={deleteAccount.isPending && deleteAccount.variables === account.id}
                  onEdit={editing.open}
                  onDelete={deleting.open}
                />
              ))}
            </ul>
            <ListPager
              label="Users pages"
              page={accounts.data.page}
              pageSize={accounts.data.pageSize}
              rowCount={accounts.data.rows.length}
              totalCount={accounts.data.totalCount}
              onPageChange={setPage}
            />
          </>
        )}
      </CardContent>

      <EditSiteAccountDialog
        account={editing.target}
        open={editing.isOpen}
        onOpenChange={editing.setIsOpen}
      />
      <ConfirmDialog
        open={deleting.isOpen}
        onOpenChange={deleting.setIsOpen}
        title={deleting.target && `Delete ${getAccountDisplayName(deleting.target)}?`}
        description={
          deleting.target && (
            <>
              The account{' '}
              <strong className="font-medium break-all text-foreground">
                {deleting.target.email}
              </strong>{' '}
              and its whole environment are deleted: its applications with their API keys, end
              users, activity logs, blacklist entries, webhooks and saved samples. Its end users can
              no longer log in. This cannot be undone.
            </>
          )
        }
        confirmLabel="Delete User"
        onConfirm={() => deleting.target && confirmDeletion(deleting.target)}
      />
    </Card>
  );
}
