import type { Application } from '@latchkey/contracts';
import { Eye, EyeOff, Pencil, SquareArrowOutUpRight, Trash2, Users } from 'lucide-react';
import { useState } from 'react';
import { RowActions } from '@/components/ui/row-actions.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import { cn } from '@/lib/utils.ts';
import { formatShortDate, maskApiKey } from './application-display.ts';
import { ApplicationStatusBadge } from './application-status-badge.tsx';

/** The dashboard's applications table. A row click selects the application. */
export function ApplicationsTable({
  applications,
  selectedApplicationId,
  onSelect,
  onShowUsers,
  onEdit,
  onDelete,
}: {
  applications: readonly Application[];
  selectedApplicationId: number | null;
  onSelect: (application: Application) => void;
  onShowUsers: (application: Application) => void;
  onEdit: (application: Application) => void;
  onDelete: (application: Application) => void;
}) {
  const [revealedIds, setRevealedIds] = useState<ReadonlySet<number>>(new Set());

  const toggleRevealed = (applicationId: number) =>
    setRevealedIds((current) => {
      const next = new Set(current);
      if (!next.delete(applicationId)) next.add(applicationId);
      return next;
    });

  return (
    <Table label="Applications">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Name</TableHead>
          <TableHead>API Key</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Created</TableHead>
          <TableHead pinned className="text-right">
            Actions
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {applications.map((application) => {
          const isRevealed = revealedIds.has(application.id);
          const isSelected = application.id === selectedApplicationId;
          return (
            <TableRow
              key={application.id}
              data-testid={`application-row-${application.id}`}
              aria-current={isSelected || undefined}
              data-state={isSelected ? 'selected' : undefined}
              className="cursor-pointer"
              onClick={() => onSelect(application)}
            >
              {/* Names in full, wrapped: two long names alike but for their ends stay apart. */}
              <TableCell className="max-w-64 min-w-40">
                <div className="font-medium wrap-anywhere">{application.name}</div>
                {application.description && (
                  <div className="line-clamp-2 text-xs wrap-anywhere text-muted-foreground">
                    {application.description}
                  </div>
                )}
              </TableCell>
              <TableCell>
                {/* Wide enough for the full key, so revealing it does not shift the table. */}
                <code
                  data-testid="api-key"
                  className={cn(
                    'inline-block min-w-[52ch] rounded bg-muted px-2 py-1 font-mono text-xs',
                    !isRevealed && 'tracking-tight text-muted-foreground',
                  )}
                >
                  {isRevealed ? application.apiKey : maskApiKey(application.apiKey)}
                </code>
              </TableCell>
              <TableCell>
                <ApplicationStatusBadge isActive={application.isActive} />
              </TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">
                {formatShortDate(application.createdAt)}
              </TableCell>
              {/* The actions act on the row; they must not also select it. */}
              <TableCell pinned onClick={(event) => event.stopPropagation()}>
                <RowActions
                  rowName={application.name}
                  actions={[
                    {
                      label: isRevealed ? 'Hide API key' : 'Reveal API key',
                      icon: isRevealed ? EyeOff : Eye,
                      isPressed: isRevealed,
                      onSelect: () => toggleRevealed(application.id),
                    },
                    {
                      label: 'Copy API key',
                      copyValue: application.apiKey,
                      toastMessage: 'API key copied to clipboard',
                    },
                    { label: 'View users', icon: Users, onSelect: () => onShowUsers(application) },
                    {
                      label: 'Edit application',
                      icon: Pencil,
                      onSelect: () => onEdit(application),
                    },
                    {
                      label: 'Manage application',
                      icon: SquareArrowOutUpRight,
                      href: `/app/${application.id}`,
                    },
                    {
                      label: 'Delete application',
                      icon: Trash2,
                      isDestructive: true,
                      onSelect: () => onDelete(application),
                    },
                  ]}
                />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
