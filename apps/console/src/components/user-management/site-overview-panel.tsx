import type { SiteOverviewRow } from '@latchkey/contracts';
import { ChartNoAxesColumn } from 'lucide-react';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import type { DataTableColumn, DataTableDefinition } from '@/components/ui/data-table.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { usePagedSearch } from '@/hooks/use-paged-search.ts';
import { useSiteOverview } from '@/hooks/use-site-admin.ts';
import { getAccountDisplayName, roleLabels } from '@/lib/site-admin-access.ts';

const countFormat = new Intl.NumberFormat('en-US');

/** A count, right-aligned so the digits line up down the column. */
function countColumn(
  header: string,
  count: (row: SiteOverviewRow) => number,
): DataTableColumn<SiteOverviewRow> {
  return {
    header,
    headerClassName: 'text-right',
    cellClassName: 'text-right tabular-nums',
    cell: (row) => countFormat.format(count(row)),
  };
}

const siteOverviewTable: DataTableDefinition<SiteOverviewRow> = {
  label: 'Site overview',
  searchBox: { label: 'Search accounts', placeholder: 'Search by email or name...' },
  getRowKey: (row) => row.accountId,
  getRowProps: (row) => ({ 'data-testid': `overview-row-${row.accountId}` }),
  columns: [
    {
      header: 'Account',
      cellClassName: 'max-w-64',
      cell: (row) => (
        <div className="grid">
          <span className="truncate font-medium">{getAccountDisplayName(row)}</span>
          <span className="truncate text-xs text-muted-foreground">{row.email}</span>
        </div>
      ),
    },
    { header: 'Role', cell: (row) => roleLabels[row.role] },
    {
      header: 'Status',
      cell: (row) => (
        <Badge variant={row.isActive ? 'success' : 'muted'}>
          {row.isActive ? 'Active' : 'Inactive'}
        </Badge>
      ),
    },
    countColumn('Applications', (row) => row.applicationCount),
    countColumn('End Users', (row) => row.endUserCount),
    countColumn('API Requests', (row) => row.apiRequestCount),
    {
      header: 'Last Activity',
      cellClassName: 'whitespace-nowrap',
      cell: (row) => (row.lastActivityAt ? formatDateTime(row.lastActivityAt) : 'Never'),
    },
  ],
};

/**
 * The read-only site overview (view_all_data): counts per account, never another environment's
 * end users, keys or logs.
 */
export function SiteOverviewPanel() {
  const { page, setPage, search, setSearch, settledSearch } = usePagedSearch();
  const overview = useSiteOverview({ page, search: settledSearch, isEnabled: true });

  return (
    <SectionCard
      title="Site Overview"
      description={
        <>
          Per account: applications, end users, API requests and the last activity. Counts only;
          each environment's data stays its own.
        </>
      }
      contentClassName="flex flex-col gap-4"
    >
      <PagedDataTable
        query={overview}
        search={{ value: search, onChange: setSearch }}
        table={siteOverviewTable}
        loadingLabel="Loading site overview"
        errorTitle="Error loading the site overview"
        describeError={(error) => getErrorToastMessage(error, 'Failed to load the site overview.')}
        empty={
          <EmptyState
            icon={ChartNoAxesColumn}
            title="No accounts"
            description="No accounts match your search."
          />
        }
        pagerLabel="Site overview pages"
        onPageChange={setPage}
      />
    </SectionCard>
  );
}
