import type { AuditEntry } from '@latchkey/contracts';
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
import type { DataTableDefinition } from '@/components/ui/data-table.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { useAuditTrail } from '@/hooks/use-site-admin.ts';
import { auditActionLabels, describeAuditChange } from './audit-entry-display.ts';

const auditTrailTable: DataTableDefinition<AuditEntry> = {
  label: 'Audit trail',
  getRowKey: (entry) => entry.id,
  getRowProps: (entry) => ({ 'data-testid': `audit-row-${entry.id}` }),
  columns: [
    {
      header: 'When',
      cellClassName: 'whitespace-nowrap',
      cell: (entry) => formatDateTime(entry.createdAt),
    },
    {
      header: 'Who',
      cellClassName: 'max-w-56 truncate',
      cellProps: (entry) => ({ title: entry.actor.email }),
      cell: (entry) => entry.actor.email,
    },
    {
      header: 'What',
      cell: (entry) => (
        <Badge variant={entry.action === 'user_deleted' ? 'danger' : 'outline'}>
          {auditActionLabels[entry.action]}
        </Badge>
      ),
    },
    {
      header: 'Whom',
      cellClassName: 'max-w-56 truncate',
      cellProps: (entry) => ({ title: entry.target.email }),
      cell: (entry) => entry.target.email,
    },
    {
      header: 'Before and after',
      cellClassName: 'min-w-64',
      cell: (entry) => (
        <ul className="grid gap-0.5 text-xs">
          {describeAuditChange(entry).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ),
    },
  ],
};

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
        <PagedDataTable
          query={audit}
          table={auditTrailTable}
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
        />
      </CardContent>
    </Card>
  );
}
