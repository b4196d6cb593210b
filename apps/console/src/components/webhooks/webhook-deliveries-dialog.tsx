import {
  webhookEventLabels,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
} from '@latchkey/contracts';
import { Inbox, RotateCw } from 'lucide-react';
import { useState } from 'react';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { Badge, type BadgeVariant } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { rowActionsColumn, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { ItemDialog } from '@/components/ui/item-dialog.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { RefreshButton } from '@/components/ui/refresh-button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { useRetryWebhookDelivery, useWebhookDeliveries } from '@/hooks/use-webhooks.ts';
import { cn } from '@/lib/utils.ts';
import { webhookDeliveryStatusLabels } from './webhook-display.ts';

export const DELIVERIES_FETCH_ERROR = 'Failed to fetch deliveries';

/** What the delivery engine did with each event sent to one webhook. */
export function WebhookDeliveriesDialog({
  webhook,
  ...openState
}: DialogOpenState & {
  webhook: Webhook | null;
}) {
  return (
    <ItemDialog
      item={webhook}
      {...openState}
      className="sm:max-w-5xl"
      title="Delivery Log"
      description={
        <>
          {webhook ? `Newest first, for ${webhook.url}.` : null} Failed attempts are retried on a
          schedule; Retry sends one again now.
        </>
      }
      descriptionClassName="break-all"
    >
      {/* Mounted only while open: each opening starts on the first page, freshly read. */}
      {({ id }) => <DeliveryLog key={id} webhookId={id} />}
    </ItemDialog>
  );
}

function DeliveryLog({ webhookId }: { webhookId: number }) {
  const [page, setPage] = useState(1);
  const deliveriesQuery = useWebhookDeliveries({ webhookId, page });
  const retry = useRetryWebhookDelivery();
  const retryingId = retry.isPending ? retry.variables.deliveryId : null;

  return (
    <PagedDataTable
      query={deliveriesQuery}
      table={deliveryLogTable({
        retryingId,
        onRetry: (delivery) => retry.mutate({ webhookId, deliveryId: delivery.id }),
      })}
      loadingLabel="Loading deliveries"
      errorTitle="Error loading deliveries"
      describeError={(error) => getErrorToastMessage(error, DELIVERIES_FETCH_ERROR)}
      toolbar={
        <div className="flex justify-end">
          <RefreshButton
            isRefreshing={deliveriesQuery.isFetching}
            onRefresh={() => void deliveriesQuery.refetch()}
          >
            Refresh
          </RefreshButton>
        </div>
      }
      empty={
        <EmptyState
          icon={Inbox}
          title="No deliveries yet"
          description="Events this webhook subscribes to appear here once they happen. Send a test webhook to try it."
        />
      }
      pagerLabel="Delivery log pages"
      onPageChange={setPage}
    />
  );
}

function deliveryLogTable({
  retryingId,
  onRetry,
}: {
  /** The delivery being sent again; its button waits for it. */
  retryingId: string | null;
  onRetry: (delivery: WebhookDelivery) => void;
}): DataTableDefinition<WebhookDelivery> {
  return {
    label: 'Deliveries',
    getRowKey: (delivery) => delivery.id,
    getRowProps: (delivery) => ({ 'data-testid': `delivery-row-${delivery.id}` }),
    columns: [
      {
        header: 'Event',
        cellClassName: 'whitespace-nowrap',
        cell: (delivery) => webhookEventLabels[delivery.event],
      },
      {
        header: 'Status',
        cell: (delivery) => (
          <div className="flex flex-wrap items-center gap-1">
            <DeliveryStatusBadge status={delivery.status} />
            {delivery.isSending ? <Badge variant="outline">{SENDING_LABEL}</Badge> : null}
          </div>
        ),
      },
      { header: 'Attempts', cellClassName: 'tabular-nums', cell: (delivery) => delivery.attempts },
      {
        header: 'Response',
        cellClassName: 'whitespace-nowrap tabular-nums',
        cell: (delivery) => <DeliveryResponse delivery={delivery} />,
      },
      {
        header: 'Last Error',
        cellProps: (delivery) => ({
          className: cn('max-w-56 truncate', !delivery.lastError && 'text-muted-foreground'),
          title: delivery.lastError ?? undefined,
        }),
        cell: (delivery) => delivery.lastError ?? '—',
      },
      {
        header: 'Time',
        cellClassName: 'whitespace-nowrap text-muted-foreground',
        cell: (delivery) => formatDateTime(delivery.completedAt ?? delivery.createdAt),
      },
      {
        header: 'Next Attempt',
        cellClassName: 'whitespace-nowrap text-muted-foreground',
        cell: (delivery) => (delivery.nextAttemptAt ? formatDateTime(delivery.nextAttemptAt) : '—'),
      },
      rowActionsColumn((delivery) => (
        <Button
          variant="outline"
          size="sm"
          // While an attempt is in flight the server refuses a retry (409).
          disabled={delivery.id === retryingId || delivery.isSending}
          title={delivery.isSending ? RETRY_WHILE_SENDING_TITLE : undefined}
          aria-label={`Retry ${webhookEventLabels[delivery.event]} delivery`}
          onClick={() => onRetry(delivery)}
        >
          {delivery.id === retryingId ? <Spinner /> : <RotateCw aria-hidden="true" />}
          Retry
        </Button>
      )),
    ],
  };
}

/** Beside the status of a delivery whose attempt is being sent right now. */
export const SENDING_LABEL = 'Sending';
export const RETRY_WHILE_SENDING_TITLE = 'An attempt is being sent: retry once it is done';

const STATUS_VARIANTS: Record<WebhookDeliveryStatus, BadgeVariant> = {
  pending: 'warning',
  succeeded: 'success',
  failed: 'danger',
};

function DeliveryStatusBadge({ status }: { status: WebhookDeliveryStatus }) {
  return <Badge variant={STATUS_VARIANTS[status]}>{webhookDeliveryStatusLabels[status]}</Badge>;
}

/** The last HTTP status and how long it took, or '—' before any answer. */
function DeliveryResponse({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.lastStatus === null) return <span className="text-muted-foreground">—</span>;
  return (
    <>
      <span className={cn(delivery.lastStatus >= 400 && 'text-destructive')}>
        HTTP {delivery.lastStatus}
      </span>
      {delivery.lastDurationMs !== null && (
        <span className="text-muted-foreground"> · {delivery.lastDurationMs} ms</span>
      )}
    </>
  );
}
