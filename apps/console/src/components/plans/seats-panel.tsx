import type { Application, SeatLease } from '@latchkey/contracts';
import { Armchair, LogOut, SearchX } from 'lucide-react';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { ConfirmSubject, ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { rowActionsColumn, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { usePagedSearch } from '@/hooks/use-paged-search.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { SEATS_FETCH_ERROR, useFreeSeat, useSeats } from '@/hooks/use-seats.ts';

/** The end of a HWID, enough to tell two computers apart. */
const hwidTail = (hwid: string | null) => (hwid === null ? 'Unknown' : `…${hwid.slice(-8)}`);

function seatsTable({
  busyLeaseId,
  onFree,
}: {
  busyLeaseId: string | null;
  onFree: (seat: SeatLease) => void;
}): DataTableDefinition<SeatLease> {
  return {
    label: 'Seats in use',
    searchBox: { label: 'Search seats', placeholder: 'User or HWID...' },
    getRowKey: (seat) => seat.id,
    columns: [
      {
        header: 'User',
        cellClassName: 'max-w-48',
        cell: (seat) => <div className="truncate font-medium">{seat.username}</div>,
      },
      {
        header: 'Computer',
        cell: (seat) => (
          <code className="text-xs" title={seat.hwid ?? undefined}>
            {hwidTail(seat.hwid)}
          </code>
        ),
      },
      {
        header: 'Until',
        cellClassName: 'whitespace-nowrap',
        cell: (seat) =>
          seat.borrowedUntil ? (
            <div className="grid gap-1">
              <Badge variant="muted">Borrowed</Badge>
              <span className="text-xs">{formatDateTime(seat.borrowedUntil)}</span>
            </div>
          ) : (
            formatDateTime(seat.expiresAt)
          ),
      },
      {
        header: 'Since',
        cellClassName: 'whitespace-nowrap',
        cell: (seat) => formatDateTime(seat.leasedAt),
      },
      rowActionsColumn(
        (seat) => (
          <IconButton
            label={`Free seat of ${seat.username} (${hwidTail(seat.hwid)})`}
            disabled={seat.id === busyLeaseId}
            isDestructive
            onClick={() => onFree(seat)}
          >
            <LogOut aria-hidden="true" />
          </IconButton>
        ),
        { cellClassName: '' },
      ),
    ],
  };
}

/**
 * The Plans tab's seats in use, shown when the application has a floating plan: who holds
 * each seat, on which computer, until when (a borrowed one says so), and Free Seat.
 */
export function SeatsPanel({ application }: { application: Application }) {
  const { page, setPage, search, setSearch, settledSearch } = usePagedSearch();
  const seatsQuery = useSeats(application.id, { page, search: settledSearch });
  const isSearching = settledSearch.trim() !== '';
  const freeSeat = useFreeSeat(application.id);
  const freeing = useDialogTarget<SeatLease>();
  return (
    <>
      <SectionCard
        title="Seats in use"
        description="The computers holding a seat of a floating plan now. A seat frees itself when its program stops; free one by hand to let another computer in."
      >
        <PagedDataTable
          query={seatsQuery}
          pagerLabel="Seat pages"
          onPageChange={setPage}
          search={{ value: search, onChange: setSearch }}
          table={seatsTable({
            busyLeaseId: freeSeat.isPending ? (freeSeat.variables ?? null) : null,
            onFree: freeing.open,
          })}
          loadingLabel="Loading seats"
          errorTitle="Error loading seats"
          describeError={(error) => getErrorToastMessage(error, SEATS_FETCH_ERROR)}
          empty={
            isSearching ? (
              <EmptyState
                icon={SearchX}
                title="No matching seats"
                description="No seat in use has a holder or HWID containing this text."
              />
            ) : (
              <EmptyState
                icon={Armchair}
                title="No seats in use"
                description="When a holder of a floating plan signs in, the seat their computer takes shows here."
              />
            )
          }
        />
      </SectionCard>
      <ConfirmTargetDialog
        dialog={freeing}
        title="Free this seat?"
        description={(seat) => (
          <>
            The seat of <ConfirmSubject>{seat.username}</ConfirmSubject> on {hwidTail(seat.hwid)}{' '}
            will be freed and its session ended.
            {seat.borrowedUntil
              ? ' It is borrowed: the offline licence already issued keeps working until it ends.'
              : ''}
          </>
        )}
        confirmLabel="Free Seat"
        onConfirm={(seat) => freeSeat.mutate(seat.id)}
      />
    </>
  );
}
