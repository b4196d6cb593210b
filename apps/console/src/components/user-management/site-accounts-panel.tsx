import { pagingLimits, type AdminUser } from '@latchkey/contracts';
import { SearchX, Users } from 'lucide-react';
import { ConfirmSubject, ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedQueryView } from '@/components/ui/paged-query-view.tsx';
import { SearchInput } from '@/components/ui/search-input.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { usePagedSearch } from '@/hooks/use-paged-search.ts';
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

/** /user-management's accounts: search, the account cards, Edit and Delete. */
export function SiteAccountsPanel() {
  const { user } = useAuth();
  const { page, setPage, search, setSearch, settledSearch } = usePagedSearch();
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
    <>
      <SectionCard
        title="Site Accounts"
        description={
          <>
            Everyone who has signed in to this installation. Each account runs its own environment
            of applications and end users.
          </>
        }
        contentClassName="flex flex-col gap-4"
      >
        <SearchInput
          value={search}
          onChange={setSearch}
          label="Search users"
          placeholder="Search by email or name..."
          maxLength={pagingLimits.search}
        />
        <PagedQueryView
          query={accounts}
          loadingLabel="Loading users"
          errorTitle="Error loading users"
          describeError={() => USERS_FETCH_ERROR}
          empty={
            <EmptyState
              icon={settledSearch.trim() ? SearchX : Users}
              title="No users"
              description="No users found matching your search."
            />
          }
          pagerLabel="Users pages"
          onPageChange={setPage}
        >
          {(rows) => (
            <ul
              aria-label="Users"
              aria-busy={accounts.isFetching && accounts.isPlaceholderData}
              className="grid gap-3"
            >
              {rows.map((account) => (
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
          )}
        </PagedQueryView>
      </SectionCard>

      <EditSiteAccountDialog account={editing.target} {...editing.dialogProps} />
      <ConfirmTargetDialog
        dialog={deleting}
        title={(account) => `Delete ${getAccountDisplayName(account)}?`}
        description={(account) => (
          <>
            The account <ConfirmSubject>{account.email}</ConfirmSubject> and its whole environment
            are deleted: its applications with their API keys, end users, activity logs, blacklist
            entries, webhooks and saved samples. Its end users can no longer log in. This cannot be
            undone.
          </>
        )}
        confirmLabel="Delete User"
        onConfirm={confirmDeletion}
      />
    </>
  );
}
