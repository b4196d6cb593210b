import type { Plan } from '@latchkey/contracts';
import {
  Archive,
  ArchiveRestore,
  Gauge,
  MonitorSmartphone,
  Pencil,
  Trash2,
  Users,
} from 'lucide-react';
import { createdColumn } from '@/components/applications/created-column.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { rowActionsColumn, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { cn } from '@/lib/utils.ts';
import { EntitlementBadges } from './entitlement-badges.tsx';
import {
  formatPlanDeviceLimit,
  formatPlanDuration,
  formatPlanMeter,
  formatPlanSeats,
  formatPlanUpdates,
} from './plan-display.ts';

/** An application's plans, with edit, archive or unarchive, and delete per row. */
export function plansTable({
  busyPlanId,
  onEdit,
  onToggleArchived,
  onDelete,
}: {
  /** The plan being archived, unarchived or deleted; its buttons wait for it. */
  busyPlanId: string | null;
  onEdit: (plan: Plan) => void;
  onToggleArchived: (plan: Plan) => void;
  onDelete: (plan: Plan) => void;
}): DataTableDefinition<Plan> {
  return {
    label: 'Plans',
    getRowKey: (plan) => plan.id,
    getRowProps: (plan) => ({ 'data-testid': `plan-row-${plan.id}` }),
    columns: [
      {
        header: 'Name',
        cellClassName: 'max-w-64',
        cell: (plan) => (
          <>
            <div className={cn('truncate font-medium', plan.archived && 'text-muted-foreground')}>
              {plan.name}
            </div>
            {plan.description && (
              <div className="truncate text-xs text-muted-foreground" title={plan.description}>
                {plan.description}
              </div>
            )}
            {plan.maxDevices !== null && (
              <div className="flex items-center gap-1 text-xs text-muted-foreground">
                <MonitorSmartphone className="size-3.5" aria-hidden="true" />
                {formatPlanDeviceLimit(plan.maxDevices)}
              </div>
            )}
            {plan.floating && (
              <div className="flex items-center gap-1 text-xs text-muted-foreground">
                <Users className="size-3.5 shrink-0" aria-hidden="true" />
                {formatPlanSeats(plan)}
              </div>
            )}
          </>
        ),
      },
      {
        header: 'Duration',
        cellClassName: 'whitespace-nowrap',
        cell: (plan) => (
          <>
            {formatPlanDuration(plan.durationDays)}
            {/* A window is what sets a "buy once, a year of updates" plan apart: say it here. */}
            {plan.updatesForDays !== null && (
              <div className="text-xs text-muted-foreground">{formatPlanUpdates(plan)}</div>
            )}
          </>
        ),
      },
      {
        header: 'Entitlements',
        cell: (plan) => (
          <>
            <EntitlementBadges
              codes={plan.entitlements}
              ownerName={plan.name}
              className="max-w-80"
            />
            {/* Meters are what the plan sells beside its entitlements: listed under them. */}
            {plan.meters.map((meter) => (
              <div
                key={meter.name}
                className="flex max-w-80 items-center gap-1 text-xs text-muted-foreground"
              >
                <Gauge className="size-3.5 shrink-0" aria-hidden="true" />
                <span className="wrap-anywhere">{formatPlanMeter(meter)}</span>
              </div>
            ))}
          </>
        ),
      },
      {
        header: 'Status',
        cell: (plan) =>
          plan.archived ? (
            <Badge variant="muted">Archived</Badge>
          ) : (
            <Badge variant="success">Active</Badge>
          ),
      },
      createdColumn(),
      rowActionsColumn(
        (plan) => {
          const isBusy = plan.id === busyPlanId;
          return (
            <div className="flex items-center justify-end gap-0.5">
              <IconButton label="Edit plan" disabled={isBusy} onClick={() => onEdit(plan)}>
                <Pencil aria-hidden="true" />
              </IconButton>
              <IconButton
                label={plan.archived ? 'Unarchive plan' : 'Archive plan'}
                disabled={isBusy}
                onClick={() => onToggleArchived(plan)}
              >
                {plan.archived ? (
                  <ArchiveRestore aria-hidden="true" />
                ) : (
                  <Archive aria-hidden="true" />
                )}
              </IconButton>
              <IconButton
                label="Delete plan"
                disabled={isBusy}
                isDestructive
                onClick={() => onDelete(plan)}
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
