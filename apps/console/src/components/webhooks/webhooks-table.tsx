import { webhookEventLabels, type Webhook } from '@latchkey/contracts';
import { History, KeyRound, Pencil, Trash2, TriangleAlert } from 'lucide-react';
import { ApplicationStatusBadge } from '@/components/applications/application-status-badge.tsx';
import { createdColumn } from '@/components/applications/created-column.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { rowActionsColumn, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { cn } from '@/lib/utils.ts';
import { getWebhookScopeLabel, splitEventBadges, webhookFormatLabels } from './webhook-display.ts';

/** The webhooks table, with the delivery log and secret beside edit and delete. */
export function webhooksTable({
  busyWebhookId,
  onShowDeliveries,
  onShowSecret,
  onEdit,
  onDelete,
}: {
  /** The webhook being deleted; its button waits for it. */
  busyWebhookId: number | null;
  onShowDeliveries: (webhook: Webhook) => void;
  onShowSecret: (webhook: Webhook) => void;
  onEdit: (webhook: Webhook) => void;
  onDelete: (webhook: Webhook) => void;
}): DataTableDefinition<Webhook> {
  return {
    label: 'Webhooks',
    getRowKey: (webhook) => webhook.id,
    getRowProps: (webhook) => ({ 'data-testid': `webhook-row-${webhook.id}` }),
    columns: [
      {
        header: 'URL',
        cellClassName: 'max-w-72',
        cell: (webhook) => (
          <>
            <div className="flex items-center gap-1">
              <span
                className="min-w-0 truncate font-mono text-[0.8125rem] font-medium"
                title={webhook.url}
              >
                {webhook.url}
              </span>
              <CopyButton
                value={webhook.url}
                label="Copy webhook URL"
                toastMessage="Webhook URL copied to clipboard"
                className="shrink-0"
              />
            </div>
            <p className="text-xs text-muted-foreground">
              {webhookFormatLabels[webhook.format]} format
            </p>
          </>
        ),
      },
      { header: 'Events', cell: (webhook) => <WebhookEventBadges webhook={webhook} /> },
      {
        header: 'Application',
        cellProps: (webhook) => ({
          className: cn(
            'max-w-48 truncate',
            webhook.applicationId === null && 'text-muted-foreground',
          ),
        }),
        cell: getWebhookScopeLabel,
      },
      {
        header: 'Status',
        cellClassName: 'max-w-56',
        cell: (webhook) => (
          <>
            <ApplicationStatusBadge isActive={webhook.isActive} />
            {webhook.disabledReason && (
              <p className="mt-1 flex items-start gap-1 text-xs text-destructive">
                <TriangleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
                <span>{webhook.disabledReason}</span>
              </p>
            )}
          </>
        ),
      },
      createdColumn(),
      rowActionsColumn(
        (webhook) => (
          <>
            <IconButton label="Delivery log" onClick={() => onShowDeliveries(webhook)}>
              <History aria-hidden="true" />
            </IconButton>
            <IconButton label="Signing secret" onClick={() => onShowSecret(webhook)}>
              <KeyRound aria-hidden="true" />
            </IconButton>
            <IconButton label="Edit webhook" onClick={() => onEdit(webhook)}>
              <Pencil aria-hidden="true" />
            </IconButton>
            <IconButton
              label="Delete webhook"
              disabled={webhook.id === busyWebhookId}
              isDestructive
              onClick={() => onDelete(webhook)}
            >
              <Trash2 aria-hidden="true" />
            </IconButton>
          </>
        ),
        { cellClassName: 'text-right whitespace-nowrap' },
      ),
    ],
  };
}

/** At most WEBHOOK_EVENT_BADGE_LIMIT badges, then '+N more' naming the rest on hover. */
function WebhookEventBadges({ webhook }: { webhook: Webhook }) {
  const { shown, moreCount } = splitEventBadges(webhook.events);
  if (shown.length === 0) {
    return <span className="text-sm text-muted-foreground italic">No events</span>;
  }
  const hidden = webhook.events.slice(shown.length).map((event) => webhookEventLabels[event]);
  return (
    <div className="flex max-w-80 flex-wrap gap-1">
      {shown.map((event) => (
        <Badge key={event} variant="secondary">
          {webhookEventLabels[event]}
        </Badge>
      ))}
      {moreCount > 0 && (
        <Badge variant="outline" title={hidden.join(', ')}>
          +{moreCount} more
        </Badge>
      )}
    </div>
  );
}
