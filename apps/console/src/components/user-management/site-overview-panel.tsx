import { pagingLimits } from '@latchkey/contracts';
import { ChartNoAxesColumn } from 'lucide-react';
import { useState } from 'react';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { Badge } from '@/components/ui/badge.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedQueryView } from '@/components/ui/paged-query-view.tsx';
import { SearchInput } from '@/components/ui/search-input.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import { useDebouncedValue } from '@/hooks/use-debounced-value.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { useSiteOverview } from '@/hooks/use-site-admin.ts';
import { getAccountDisplayName, roleLabels } from '@/lib/site-admin-access.ts';

const countFormat = new Intl.NumberFormat('en-US');

/**
 * The read-only site overview (issue 14, view_all_data): counts per account, never another
 * environment's end users, keys or logs.
 */
export function SiteOverviewPanel() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search);
  const overview = useSiteOverview({ page, search: settledSearch, isEnabled: true });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Site Overview</CardTitle>
        <CardDescription>
          Per account: applications, end users, API requests and the last activity. Counts only;
          each environment's data stays its own.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <SearchInput
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage(1);
          }}
          label="Search accounts"
          placeholder="Search by email or name..."
          maxLength={pagingLimits.search}
        />
        <PagedQueryView
          query={overview}
          loadingLabel="Loading site overview"
          errorTitle="Error loading the site overview"
          describeError={(error) =>
            getErrorToastMessage(error, 'Failed to load the site overview.')
          }
          empty={
            <EmptyState
              icon={ChartNoAxesColumn}
              title="No accounts"
              description="No accounts match your search."
            />
          }
          pagerLabel="Site overview pages"
          onPageChange={setPage}
        >
          {(rows) => (
            <Table label="Site overview">
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  <TableHead>Account</TableHead>
                  <TableHead>Role</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead className="text-right">Applications</TableHead>
                  <TableHead className="text-right">End Users</TableHead>
                  <TableHead className="text-right">API Requests</TableHead>
                  <TableHead>Last Activity</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row.accountId} data-testid={`overview-row-${row.accountId}`}>
                    <TableCell className="max-w-64">
                      <div className="grid">
                        <span className="truncate font-medium">{getAccountDisplayName(row)}</span>
                        <span className="truncate text-xs text-muted-foreground">{row.email}</span>
                      </div>
                    </TableCell>
                    <TableCell>{roleLabels[row.role]}</TableCell>
                    <TableCell>
                      <Badge variant={row.isActive ? 'success' : 'muted'}>
                        {row.isActive ? 'Active' : 'Inactive'}
                      </Badge>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {countFormat.format(row.applicationCount)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {countFormat.format(row.endUserCount)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {countFormat.format(row.apiRequestCount)}
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      {row.lastActivityAt ? formatDateTime(row.lastActivityAt) : 'Never'}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </PagedQueryView>
      </CardContent>
    </Card>
  );
}
