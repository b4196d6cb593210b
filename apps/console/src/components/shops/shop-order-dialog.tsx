import { shopProviderLabels, type ShopOrder, type ShopOrderDetail } from '@latchkey/contracts';
import { Copy, Eye, EyeOff, PackageCheck } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { LICENSE_STATUS_LABELS } from '@/components/licenses/license-display.ts';
import { Button } from '@/components/ui/button.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { ItemDialog } from '@/components/ui/item-dialog.tsx';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { TableSkeleton } from '@/components/ui/table-skeleton.tsx';
import { copyToClipboard } from '@/hooks/copy-to-clipboard.ts';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { revealLicenseKey } from '@/hooks/use-licenses.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { SHOP_ORDER_FETCH_ERROR, useProcessShopOrder, useShopOrder } from '@/hooks/use-shops.ts';
import { toast } from '@/hooks/use-toast.ts';
import { formatOrderAmount } from './shop-display.ts';
import { ShopOrderStatusBadge } from './shop-orders-table.tsx';

/**
 * One order: what the shop said about it, the keys it minted (masked, each revealed on
 * request by the licence's own reveal), the events the shop sent about it, and, for an order
 * whose product was mapped to no plan, the button that mints it now.
 */
export function ShopOrderDialog({
  applicationId,
  order,
  ...openState
}: DialogOpenState & { applicationId: number; order: ShopOrder | null }) {
  return (
    <ItemDialog
      item={order}
      {...openState}
      className="sm:max-w-2xl"
      title="Order"
      description={order ? `${order.providerOrderId} from ${order.connectionName}` : ''}
      descriptionClassName="break-all"
    >
      {(shown) => <OrderDetail key={shown.id} applicationId={applicationId} order={shown} />}
    </ItemDialog>
  );
}

function OrderDetail({ applicationId, order }: { applicationId: number; order: ShopOrder }) {
  const detailQuery = useShopOrder(applicationId, order.id);
  const process = useProcessShopOrder(applicationId);
  // The detail once read; the listed row meanwhile, so the fields show at once.
  const shown: ShopOrder = detailQuery.data ?? order;

  return (
    <div className="grid min-w-0 gap-5">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        <Field label="Status">
          <ShopOrderStatusBadge order={shown} />
        </Field>
        <Field label="Order ID">
          <span className="font-mono text-xs break-all">{shown.providerOrderId}</span>
        </Field>
        <Field label="Shop">
          {shown.connectionName} ({shopProviderLabels[shown.provider]})
          {shown.testMode && ' · Test order'}
        </Field>
        <Field label="Buyer">{shown.buyerEmail ?? 'Not known yet'}</Field>
        <Field label="Product">
          <span className="font-mono text-xs break-all">{shown.productId}</span>
        </Field>
        <Field label="Quantity">{shown.quantity}</Field>
        <Field label="Amount">{formatOrderAmount(shown.amount, shown.currency)}</Field>
        <Field label="Received">{formatDateTime(shown.createdAt)}</Field>
      </dl>

      {shown.status === 'needs_mapping' && (
        <div className="grid gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm">
          <p>
            Its product is mapped to no plan, so no key was minted. Map{' '}
            <code className="font-mono text-xs break-all">{shown.productId}</code> to a plan in the
            connection, then process the order: its keys are minted and mailed to the buyer.
          </p>
          <Button
            className="w-fit"
            disabled={process.isPending}
            onClick={() => process.mutate(order.id)}
          >
            {process.isPending ? <Spinner /> : <PackageCheck aria-hidden="true" />}
            Process Order
          </Button>
        </div>
      )}

      {detailQuery.isPending ? (
        <TableSkeleton label="Loading the order" rows={2} />
      ) : detailQuery.isError ? (
        <LoadErrorState
          title="Error loading the order"
          description={getErrorToastMessage(detailQuery.error, SHOP_ORDER_FETCH_ERROR)}
          isRetrying={detailQuery.isFetching}
          onRetry={() => void detailQuery.refetch()}
        />
      ) : (
        <>
          <OrderKeys applicationId={applicationId} detail={detailQuery.data} />
          <OrderEvents detail={detailQuery.data} />
        </>
      )}
    </div>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}

/** The licence list's own word for a key's state; the state itself if it is a new one. */
function licenseStatusLabel(status: string): string {
  return Object.hasOwn(LICENSE_STATUS_LABELS, status)
    ? LICENSE_STATUS_LABELS[status as keyof typeof LICENSE_STATUS_LABELS]
    : status;
}

function OrderKeys({ applicationId, detail }: { applicationId: number; detail: ShopOrderDetail }) {
  const [revealed, setRevealed] = useState<Record<string, string>>({});
  const [busyId, setBusyId] = useState<string | null>(null);

  /** The whole key, asked of the server once and kept while the dialog is open. */
  const fetchKey = async (licenseId: string): Promise<string | null> => {
    const known = revealed[licenseId];
    if (known !== undefined) return known;
    setBusyId(licenseId);
    try {
      const key = await revealLicenseKey(applicationId, licenseId);
      return key;
    } catch (error) {
      toast({
        title: 'Error',
        description: getErrorToastMessage(error, 'Failed to reveal licence key'),
        variant: 'destructive',
      });
      return null;
    } finally {
      setBusyId(null);
    }
  };

  const toggle = async (licenseId: string) => {
    if (revealed[licenseId] !== undefined) {
      setRevealed(({ [licenseId]: _hidden, ...rest }) => rest);
      return;
    }
    const key = await fetchKey(licenseId);
    if (key !== null) setRevealed((current) => ({ ...current, [licenseId]: key }));
  };

  const copy = async (licenseId: string) => {
    const key = await fetchKey(licenseId);
    if (key !== null) await copyToClipboard(key, 'Licence key copied to clipboard');
  };

  return (
    <section aria-labelledby="shop-order-keys" className="grid gap-2">
      <h3 id="shop-order-keys" className="text-sm font-semibold">
        Keys
      </h3>
      {detail.licenses.length === 0 ? (
        <p className="text-sm text-muted-foreground">No key was minted for this order.</p>
      ) : (
        <ul aria-label="Keys" className="grid gap-2">
          {detail.licenses.map((license) => {
            const isRevealed = revealed[license.id] !== undefined;
            const isBusy = busyId === license.id;
            return (
              <li
                key={license.id}
                className="flex min-w-0 flex-wrap items-center gap-2 rounded-md border border-border px-3 py-2"
              >
                <code
                  className="min-w-0 flex-1 font-mono text-xs break-all"
                  data-revealed={isRevealed || undefined}
                >
                  {revealed[license.id] ?? license.key}
                </code>
                <span className="text-xs text-muted-foreground">
                  {licenseStatusLabel(license.status)}
                  {license.bannedReason && `: ${license.bannedReason}`}
                </span>
                <IconButton
                  label={isRevealed ? 'Hide key' : 'Reveal key'}
                  disabled={isBusy}
                  onClick={() => void toggle(license.id)}
                >
                  {isRevealed ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
                </IconButton>
                <IconButton
                  label="Copy key"
                  disabled={isBusy}
                  onClick={() => void copy(license.id)}
                >
                  <Copy aria-hidden="true" />
                </IconButton>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function OrderEvents({ detail }: { detail: ShopOrderDetail }) {
  return (
    <section aria-labelledby="shop-order-events" className="grid gap-2">
      <h3 id="shop-order-events" className="text-sm font-semibold">
        Events
      </h3>
      {detail.events.length === 0 ? (
        <p className="text-sm text-muted-foreground">No event of the shop is recorded.</p>
      ) : (
        <ol aria-label="Events" className="grid gap-2">
          {detail.events.map((event) => (
            <li
              key={event.id}
              className="grid gap-0.5 rounded-md border border-border px-3 py-2 text-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-x-4"
            >
              <code className="font-mono text-xs break-all">{event.type}</code>
              <time
                dateTime={event.receivedAt}
                className="text-xs text-muted-foreground sm:row-span-2"
              >
                {formatDateTime(event.receivedAt)}
              </time>
              <span className="text-xs text-muted-foreground">{event.outcome}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
