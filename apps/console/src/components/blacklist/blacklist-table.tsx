import { blacklistTypeLabels, type BlacklistEntry } from '@latchkey/contracts';
import { Globe, Trash2 } from 'lucide-react';
import { ApplicationStatusBadge } from '@/components/applications/application-status-badge.tsx';
import { createdColumn } from '@/components/applications/created-column.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { rowActionsColumn, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { cn } from '@/lib/utils.ts';
import { getBlacklistReason, getBlacklistScopeLabel } from './blacklist-display.ts';

/** The blacklist table. */
export function blacklistTable({
  busyEntryId,
  onDelete,
}: {
  /** The entry being deleted; its button waits for it. */
  busyEntryId: number | null;
  onDelete: (entry: BlacklistEntry) => void;
}): DataTableDefinition<BlacklistEntry> {
  return {
    label: 'Blacklist entries',
    searchBox: { label: 'Search blacklist', placeholder: 'Search by value or reason' },
    getRowKey: (entry) => entry.id,
    getRowProps: (entry) => ({ 'data-testid': `blacklist-row-${entry.id}` }),
    columns: [
      {
        header: 'Type',
        cell: (entry) => <Badge variant="secondary">{blacklistTypeLabels[entry.type]}</Badge>,
      },
      {
        header: 'Value',
        cellClassName: 'max-w-64 truncate font-mono text-[0.8125rem] font-medium',
        cellProps: (entry) => ({ title: entry.value }),
        cell: (entry) => entry.value,
      },
      {
        header: 'Application',
        cellClassName: 'max-w-48',
        cell: (entry) => {
          const isGlobal = entry.applicationId === null;
          return (
            <span
              className={cn(
                'inline-flex max-w-full items-center gap-1.5 truncate',
                isGlobal && 'text-muted-foreground',
              )}
            >
              {isGlobal && <Globe className="size-3.5 shrink-0" aria-hidden="true" />}
              <span className="truncate">{getBlacklistScopeLabel(entry)}</span>
            </span>
          );
        },
      },
      {
        header: 'Reason',
        cellProps: (entry) => ({
          className: cn('max-w-72 truncate', !entry.reason && 'text-muted-foreground italic'),
          title: entry.reason ?? undefined,
        }),
        cell: getBlacklistReason,
      },
      {
        header: 'Status',
        cell: (entry) => <ApplicationStatusBadge isActive={entry.isActive} />,
      },
      createdColumn(),
      rowActionsColumn((entry) => (
        <IconButton
          label="Delete blacklist entry"
          disabled={entry.id === busyEntryId}
          isDestructive
          onClick={() => onDelete(entry)}
        >
          <Trash2 aria-hidden="true" />
        </IconButton>
      )),
    ],
  };
}
