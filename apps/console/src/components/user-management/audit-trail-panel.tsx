import { ScrollText } from 'lucide-react';
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
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { useAuditTrail } from '@/hooks/use-site-admin.ts';
import { auditActionLabels, describeAuditChange } from './audit-entry-display.ts';

/** The audit trail (issue 14): who did what to whom, before and after, when; newest first. */
export function AuditTrailPanel() {
  const [page, setPage] = useState(1);
  const audit = useAuditTrail({ page, isEnabled: true });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Audit Trail</CardTitle>
        <CardDescription>
          Every change of a role, permission or active flag and every deletion, newest first. It
          keeps the e-mail addresses as they were, so it outlives deleted accounts.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <PagedQueryView
          query={audit}
          loadingLabel="Loading audit trail"
          errorTitle="Error loading the audit trail"
          describeError={(error) => getErrorToastMessage(error, 'Failed to load the audit trail.')}
          empty={
            <EmptyState
              icon={ScrollText}
              title="No audit entries"
              description="Changes to accounts' roles, permissions and status will be listed here."
            />
          }
          pagerLabel="Audit trail pages"
          onPageChange={setPage}
        >
          {(rows) => (
            <Table label="Audit trail">
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  <TableHead>When</TableHead>
                  <TableHead>Who</TableHead>
                  <TableHead>What</TableHead>
                  <TableHead>Whom</TableHead>
                  <TableHead>Before and after</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((entry) => (
                  <TableRow key={entry.id} data-testid={`audit-row-${entry.id}`}>
                    <TableCell className="whitespace-nowrap">
                      {formatDateTime(entry.createdAt)}
                    </TableCell>
                    <TableCell className="max-w-56 truncate" title={entry.actor.email}>
                      {entry.actor.email}
                    </TableCell>
                    <TableCell>
                      <Badge variant={entry.action === 'user_deleted' ? 'danger' : 'outline'}>
                        {auditActionLabels[entry.action]}
                      </Badge>
                    </TableCell>
                    <TableCell className="max-w-56 truncate" title={entry.target.email}>
                      {entry.target.email}
                    </TableCell>
                    <TableCell className="min-w-64">
                      <ul className="grid gap-0.5 text-xs">
                        {describeAuditChange(entry).map((line) => (
                          <li key={line}>{line}</li>
                        ))}
                      </ul>
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
