import { blacklistTypeLabels, type BlacklistEntry } from '@latchkey/contracts';
import { Globe, Trash2 } from 'lucide-react';
import { ApplicationStatusBadge } from '@/components/applications/application-status-badge.tsx';
import { formatDateTime, formatShortDate } from '@/components/applications/application-display.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import { cn } from '@/lib/utils.ts';
import { getBlacklistReason, getBlacklistScopeLabel } from './blacklist-display.ts';

/** Spec doc 2 §2: the blacklist table. */
export function BlacklistTable({
  entries,
  busyEntryId,
  onDelete,
}: {
  entries: readonly BlacklistEntry[];
  /** The entry being deleted; its button waits for it. */
  busyEntryId: number | null;
  onDelete: (entry: BlacklistEntry) => void;
}) {
  return (
    <Table label="Blacklist entries">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Type</TableHead>
          <TableHead>Value</TableHead>
          <TableHead>Application</TableHead>
          <TableHead>Reason</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Created</TableHead>
          <TableHead pinned className="text-right">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.map((entry) => {
          const isGlobal = entry.applicationId === null;
          return (
            <TableRow key={entry.id} data-testid={`blacklist-row-${entry.id}`}>
              <TableCell>
                <Badge variant="secondary">{blacklistTypeLabels[entry.type]}</Badge>
              </TableCell>
              <TableCell
                className="max-w-64 truncate font-mono text-[0.8125rem] font-medium"
                title={entry.value}
              >
                {entry.value}
              </TableCell>
              <TableCell className="max-w-48">
                <span
                  className={cn(
                    'inline-flex max-w-full items-center gap-1.5 truncate',
                    isGlobal && 'text-muted-foreground',
                  )}
                >
                  {isGlobal && <Globe className="size-3.5 shrink-0" aria-hidden="true" />}
                  <span className="truncate">{getBlacklistScopeLabel(entry)}</span>
                </span>
              </TableCell>
              <TableCell
                className={cn('max-w-72 truncate', !entry.reason && 'text-muted-foreground italic')}
                title={entry.reason ?? undefined}
              >
                {getBlacklistReason(entry)}
              </TableCell>
              <TableCell>
                <ApplicationStatusBadge isActive={entry.isActive} />
              </TableCell>
              <TableCell
                className="whitespace-nowrap text-muted-foreground"
                title={formatDateTime(entry.createdAt)}
              >
                {formatShortDate(entry.createdAt)}
              </TableCell>
              <TableCell pinned className="text-right">
                <IconButton
                  label="Delete blacklist entry"
                  disabled={entry.id === busyEntryId}
                  className="text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
                  onClick={() => onDelete(entry)}
                >
                  <Trash2 aria-hidden="true" />
                </IconButton>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
