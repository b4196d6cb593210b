import { blacklistTypeLabels, type BlacklistEntry } from '@latchkey/contracts';
import { ShieldCheck } from 'lucide-react';
import { AddBlacklistEntryDialog } from '@/components/blacklist/add-blacklist-entry-dialog.tsx';
import { BlacklistCountCards } from '@/components/blacklist/blacklist-count-cards.tsx';
import { getBlacklistScopeLabel } from '@/components/blacklist/blacklist-display.ts';
import { blacklistTable } from '@/components/blacklist/blacklist-table.tsx';
import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';
import { ConfirmSubject, ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { toStatLoadState } from '@/components/ui/stat-grid.tsx';
import {
  useBlacklist,
  useBlacklistCounts,
  useDeleteBlacklistEntry,
} from '@/hooks/use-blacklist.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { usePagedSearch } from '@/hooks/use-paged-search.ts';

export const BLACKLIST_FETCH_ERROR = 'Failed to fetch blacklist entries';

/** /blacklist: the counts, the entries and the Add Blacklist Entry dialog. */
export function BlacklistPage() {
  const { page, setPage, search, setSearch, settledSearch } = usePagedSearch();
  const entriesQuery = useBlacklist({ page, search: settledSearch });
  const counts = useBlacklistCounts();
  const deleteEntry = useDeleteBlacklistEntry();
  const deleting = useDialogTarget<BlacklistEntry>();

  return (
    <SignedInLayout>
      <div className="flex flex-col gap-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <PageHeading
            title="Blacklist"
            description="Block IP addresses, usernames, emails and hardware IDs from registering and logging in."
          />
          <AddBlacklistEntryDialog />
        </div>

        <BlacklistCountCards counts={counts.counts} {...toStatLoadState(counts)} />

        <SectionCard
          title="Blacklist Entries"
          description="A global entry applies to every one of your applications; others to one only."
          contentClassName="flex flex-col gap-4"
        >
          <PagedDataTable
            query={entriesQuery}
            search={{ value: search, onChange: setSearch }}
            table={blacklistTable({
              busyEntryId: deleteEntry.isPending ? deleteEntry.variables : null,
              onDelete: deleting.open,
            })}
            loadingLabel="Loading blacklist entries"
            errorTitle="Error loading blacklist"
            describeError={(error) => getErrorToastMessage(error, BLACKLIST_FETCH_ERROR)}
            empty={
              <EmptyState
                icon={ShieldCheck}
                title="No blacklist entries"
                description="Nothing is blocked yet. Add an IP address, username, email or hardware ID to refuse it access."
              />
            }
            canShowEmptyState={search.trim() === ''}
            pagerLabel="Blacklist pages"
            onPageChange={setPage}
          />
        </SectionCard>
      </div>

      <ConfirmTargetDialog
        dialog={deleting}
        title="Delete blacklist entry?"
        description={(entry) => (
          <>
            Removing this entry will allow access again:{' '}
            <ConfirmSubject>{entry.value}</ConfirmSubject> ({blacklistTypeLabels[entry.type]}) will
            no longer be blocked
            {entry.applicationId === null
              ? ' in any of your applications.'
              : ` in ${getBlacklistScopeLabel(entry)}.`}
          </>
        )}
        confirmLabel="Delete Entry"
        onConfirm={(entry) => deleteEntry.mutate(entry.id)}
      />
    </SignedInLayout>
  );
}
