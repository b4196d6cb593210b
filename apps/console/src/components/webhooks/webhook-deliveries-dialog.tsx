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
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedQueryView } from '@/components/ui/paged-query-view.tsx';
import { RefreshButton } from '@/components/ui/refresh-button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { useRetryWebhookDelivery, useWebhookDeliveries } from '@/hooks/use-webhooks.ts';
import { cn } from '@/lib/utils.ts';
import { webhookDeliveryStatusLabels } from './webhook-display.ts';

export const DELIVERIES_FETCH_ERROR = 'Failed to fetch deliveries';

/** Beyond the spec (issue 12): what the engine did with each event sent to one webhook. */
export function WebhookDeliveriesDialog({
  webhook,
  open,
  onOpenChange,
}: {
  webhook: Webhook | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-5xl">
        <DialogHeader>
          <DialogTitle>Delivery Log</DialogTitle>
          <DialogDescription className="break-all">
            {webhook ? `Newest first, for ${webhook.url}.` : null} Failed attempts are retried on a
            schedule; Retry sends one again now.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open: each opening starts on the first page, freshly read. */}
        {webhook && <DeliveryLog key={webhook.id} webhookId={webhook.id} />}
      </DialogContent>
    </Dialog>
  );
}

function DeliveryLog({ webhookId }: { webhookId: number }) {
  const [page, setPage] = useState(1);
  const deliveriesQuery = useWebhookDeliveries({ webhookId, page });
  const retry = useRetryWebhookDelivery();
  const retryingId = retry.isPending ? retry.variables.deliveryId : null;

  return (
    <PagedQueryView
      query={deliveriesQuery}
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
    >
      {(rows) => (
        <Table label="Deliveries">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Event</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Attempts</TableHead>
              <TableHead>Response</TableHead>
              <TableHead>Last Error</TableHead>
              <TableHead>Time</TableHead>
              <TableHead>Next Attempt</TableHead>
              <TableHead pinned className="text-right">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((delivery) => (
              <TableRow key={delivery.id} data-testid={`delivery-row-${delivery.id}`}>
                <TableCell className="whitespace-nowrap">
                  {webhookEventLabels[delivery.event]}
                </TableCell>
                <TableCell>
                  <div className="flex flex-wrap items-center gap-1">
                    <DeliveryStatusBadge status={delivery.status} />
                    {delivery.isSending ? <Badge variant="outline">{SENDING_LABEL}</Badge> : null}
                  </div>
                </TableCell>
                <TableCell className="tabular-nums">{delivery.attempts}</TableCell>
                <TableCell className="whitespace-nowrap tabular-nums">
                  <DeliveryResponse delivery={delivery} />
                </TableCell>
                <TableCell
                  className={cn(
                    'max-w-56 truncate',
                    !delivery.lastError && 'text-muted-foreground',
                  )}
                  title={delivery.lastError ?? undefined}
                >
                  {delivery.lastError ?? '—'}
                </TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  {formatDateTime(delivery.completedAt ?? delivery.createdAt)}
                </TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  {delivery.nextAttemptAt ? formatDateTime(delivery.nextAttemptAt) : '—'}
                </TableCell>
                <TableCell pinned className="text-right">
                  <Button
                    variant="outline"
                    size="sm"
                    // While an attempt is in flight the server refuses a retry (409).
                    disabled={delivery.id === retryingId || delivery.isSending}
                    title={delivery.isSending ? RETRY_WHILE_SENDING_TITLE : undefined}
                    aria-label={`Retry ${webhookEventLabels[delivery.event]} delivery`}
                    onClick={() => retry.mutate({ webhookId, deliveryId: delivery.id })}
                  >
                    {delivery.id === retryingId ? <Spinner /> : <RotateCw aria-hidden="true" />}
                    Retry
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </PagedQueryView>
  );
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
