import type { AuditEntry } from '@latchkey/contracts';
import { ScrollText } from 'lucide-react';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import type { DataTableDefinition } from '@/components/ui/data-table.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { usePagedSearch } from '@/hooks/use-paged-search.ts';
import { useAuditTrail } from '@/hooks/use-site-admin.ts';
import {
  auditActionLabels,
  describeAuditActor,
  describeAuditChange,
  describeAuditTarget,
  isRemovalAction,
} from './audit-entry-display.ts';

const auditTrailTable: DataTableDefinition<AuditEntry> = {
  label: 'Audit trail',
  searchBox: { label: 'Search the audit trail', placeholder: 'Search by email...' },
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
      cellClassName: 'max-w-56',
      cell: (entry) => {
        const hand = describeAuditActor(entry);
        return (
          <div className="grid gap-0.5">
            <span className="truncate" title={entry.actor.email}>
              {entry.actor.email}
            </span>
            {hand ? <span className="text-xs text-muted-foreground">{hand}</span> : null}
          </div>
        );
      },
    },
    {
      header: 'What',
      cell: (entry) => (
        <Badge variant={isRemovalAction(entry.action) ? 'danger' : 'outline'}>
          {auditActionLabels[entry.action]}
        </Badge>
      ),
    },
    {
      header: 'Whom',
      cellClassName: 'max-w-64 truncate',
      cellProps: (entry) => ({ title: describeAuditTarget(entry) }),
      cell: (entry) => describeAuditTarget(entry),
    },
    {
      header: 'Change',
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

/**
 * The audit trail: who did what to whom, before and after, when; newest first. Besides the
 * administration of accounts, every owner's changes in their own environment (applications,
 * end users, keys, plans, webhooks, blacklist), each with what it touched and what it changed,
 * secrets redacted, and the token and address when it came through the management API.
 */
export function AuditTrailPanel() {
  const { page, setPage, search, setSearch, settledSearch } = usePagedSearch();
  const audit = useAuditTrail({ page, search: settledSearch, isEnabled: true });

  return (
    <SectionCard
      title="Audit Trail"
      description={
        <>
          Every change of an account&apos;s role, permissions or status, every deletion, and every
          change owners make to their applications, end users, keys, plans, webhooks and blacklist,
          newest first. It keeps names as they were, so it outlives what it names.
        </>
      }
      contentClassName="flex flex-col gap-4"
    >
      <PagedDataTable
        query={audit}
        search={{ value: search, onChange: setSearch }}
        table={auditTrailTable}
        loadingLabel="Loading audit trail"
        errorTitle="Error loading the audit trail"
        describeError={(error) => getErrorToastMessage(error, 'Failed to load the audit trail.')}
        empty={
          <EmptyState
            icon={ScrollText}
            title="No audit entries"
            description={
              settledSearch.trim()
                ? 'No entries by or about an account matching your search.'
                : "Changes to accounts and to owners' applications and end users will be listed here."
            }
          />
        }
        pagerLabel="Audit trail pages"
        onPageChange={setPage}
      />
    </SectionCard>
  );
}
