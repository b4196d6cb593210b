import type { ApplicationVariable } from '@latchkey/contracts';
import { Pencil, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';
import { rowActionsColumn, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { previewValue } from './variable-display.ts';

/** An application's variables, with edit and delete per row. */
export function variablesTable({
  busyVariableId,
  onEdit,
  onDelete,
}: {
  /** The variable being deleted; its buttons wait for it. */
  busyVariableId: string | null;
  onEdit: (variable: ApplicationVariable) => void;
  onDelete: (variable: ApplicationVariable) => void;
}): DataTableDefinition<ApplicationVariable> {
  return {
    label: 'Variables',
    searchBox: { label: 'Search variables', placeholder: 'Search by name or value...' },
    getRowKey: (variable) => variable.id,
    getRowProps: (variable) => ({ 'data-testid': `variable-row-${variable.name}` }),
    columns: [
      {
        header: 'Name',
        cellClassName: 'max-w-56',
        cell: (variable) => (
          <div className="truncate font-mono font-medium" title={variable.name}>
            {variable.name}
          </div>
        ),
      },
      {
        header: 'Value',
        cellClassName: 'max-w-80',
        cell: (variable) =>
          variable.value === '' ? (
            <span className="text-sm text-muted-foreground italic">Empty</span>
          ) : (
            <div className="truncate font-mono text-sm" title={previewValue(variable.value, 500)}>
              {previewValue(variable.value)}
            </div>
          ),
      },
      {
        header: 'Access',
        cell: (variable) =>
          variable.requiresSession ? (
            <Badge variant="secondary">Requires session</Badge>
          ) : (
            <Badge variant="muted">Public</Badge>
          ),
      },
      {
        header: 'Updated',
        cellClassName: 'whitespace-nowrap text-sm text-muted-foreground',
        cell: (variable) => formatDateTime(variable.updatedAt),
      },
      rowActionsColumn(
        (variable) => {
          const isBusy = variable.id === busyVariableId;
          return (
            <div className="flex items-center justify-end gap-0.5">
              <IconButton
                label={`Edit variable ${variable.name}`}
                disabled={isBusy}
                onClick={() => onEdit(variable)}
              >
                <Pencil aria-hidden="true" />
              </IconButton>
              <IconButton
                label={`Delete variable ${variable.name}`}
                disabled={isBusy}
                isDestructive
                onClick={() => onDelete(variable)}
              >
                <Trash2 aria-hidden="true" />
              </IconButton>
            </div>
          );
        },
        { cellClassName: '' },
      ),
    ],
  };
}
