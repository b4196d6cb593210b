import {
  shopProviderLabels,
  type Application,
  type CreatedShopConnection,
  type ShopConnection,
} from '@latchkey/contracts';
import { CircleAlert, Pencil, RefreshCcw, Send, Store, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmSubject, ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedQueryView } from '@/components/ui/paged-query-view.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { usePlans } from '@/hooks/use-plans.ts';
import {
  SHOP_CONNECTIONS_FETCH_ERROR,
  useDeleteShopConnection,
  useRotateShopUrl,
  useShopConnections,
} from '@/hooks/use-shops.ts';
import { ShopConnectedDialog } from './shop-connected-dialog.tsx';
import {
  CreateShopConnectionDialog,
  EditShopConnectionDialog,
} from './shop-connection-form-dialog.tsx';
import { SendShopTestEventDialog } from './send-shop-test-event-dialog.tsx';

/**
 * The shops that sell the application's plans: each one's URL to paste into the shop, its
 * orders waiting for a mapping, and what can be done with it (test, edit, a new Gumroad URL,
 * delete).
 */
export function ShopConnectionsCard({
  application,
  onShowWaitingOrders,
}: {
  application: Application;
  /** Shows the orders that wait for a mapping in the Orders card. */
  onShowWaitingOrders: () => void;
}) {
  const applicationId = application.id;
  const connectionsQuery = useShopConnections(applicationId);
  const plans = usePlans(applicationId).data ?? [];
  const rotateUrl = useRotateShopUrl(applicationId);
  const deleteConnection = useDeleteShopConnection(applicationId);
  const editing = useDialogTarget<ShopConnection>();
  const testing = useDialogTarget<ShopConnection>();
  const rotating = useDialogTarget<ShopConnection>();
  const deleting = useDialogTarget<ShopConnection>();
  const [created, setCreated] = useState<CreatedShopConnection | null>(null);
  const [isShowingCreated, setIsShowingCreated] = useState(false);
  const busyId =
    [rotateUrl, deleteConnection].find((mutation) => mutation.isPending)?.variables ?? null;

  const connectButton = (
    <CreateShopConnectionDialog
      applicationId={applicationId}
      onCreated={(connection) => {
        setCreated(connection);
        setIsShowingCreated(true);
      }}
    />
  );

  return (
    <>
      <SectionCard
        title="Shop Connections"
        description={
          <>
            Shops that sell {application.name}&apos;s plans. Each paid order mints keys of the plan
            its product is mapped to and mails them to the buyer.
          </>
        }
        actions={connectButton}
      >
        <PagedQueryView
          query={connectionsQuery}
          loadingLabel="Loading shop connections"
          errorTitle="Error loading shop connections"
          describeError={(error) => getErrorToastMessage(error, SHOP_CONNECTIONS_FETCH_ERROR)}
          empty={
            <EmptyState
              icon={Store}
              title="No shops connected"
              description="No shop is connected yet. Connect one to sell this application's plans."
              action={connectButton}
            />
          }
        >
          {(connections) => (
            <ul aria-label="Shop connections" className="grid gap-3">
              {connections.map((connection) => (
                <ShopConnectionItem
                  key={connection.id}
                  connection={connection}
                  isBusy={connection.id === busyId}
                  onTest={testing.open}
                  onEdit={editing.open}
                  onRotate={rotating.open}
                  onDelete={deleting.open}
                  onShowWaitingOrders={onShowWaitingOrders}
                />
              ))}
            </ul>
          )}
        </PagedQueryView>
      </SectionCard>

      <ShopConnectedDialog
        created={created}
        open={isShowingCreated}
        onOpenChange={(open) => {
          setIsShowingCreated(open);
          // The generated secret is not kept once its dialog is closed.
          if (!open) setCreated((shown) => (shown ? { ...shown, secret: null } : null));
        }}
      />
      <EditShopConnectionDialog
        applicationId={applicationId}
        connection={editing.target}
        {...editing.dialogProps}
      />
      <SendShopTestEventDialog
        applicationId={applicationId}
        connection={testing.target}
        plans={plans}
        {...testing.dialogProps}
      />
      <ConfirmTargetDialog
        dialog={rotating}
        title="Make a new URL?"
        description={(connection) => (
          <>
            The current URL of <ConfirmSubject>{connection.name}</ConfirmSubject> stops working at
            once. Paste the new one into Gumroad as the Ping URL straight away: sales made before
            that are not received.
          </>
        )}
        confirmLabel="Make New URL"
        onConfirm={(connection) => rotateUrl.mutate(connection.id)}
      />
      <ConfirmTargetDialog
        dialog={deleting}
        title="Delete shop connection?"
        description={(connection) => (
          <>
            <ConfirmSubject>{connection.name}</ConfirmSubject>&apos;s URL stops answering at once:
            events the shop sends from now on are refused. Its orders and the licence keys they
            minted stay. This cannot be undone.
          </>
        )}
        confirmLabel="Delete Connection"
        onConfirm={(connection) => deleteConnection.mutate(connection.id)}
      />
    </>
  );
}

function ShopConnectionItem({
  connection,
  isBusy,
  onTest,
  onEdit,
  onRotate,
  onDelete,
  onShowWaitingOrders,
}: {
  connection: ShopConnection;
  isBusy: boolean;
  onTest: (connection: ShopConnection) => void;
  onEdit: (connection: ShopConnection) => void;
  onRotate: (connection: ShopConnection) => void;
  onDelete: (connection: ShopConnection) => void;
  onShowWaitingOrders: () => void;
}) {
  const waiting = connection.ordersNeedingMapping;
  const productCount = connection.products.length;

  return (
    <li
      aria-label={connection.name}
      data-testid={`shop-connection-${connection.id}`}
      className="grid min-w-0 gap-3 rounded-lg border border-border p-4"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold break-words">{connection.name}</h3>
        <Badge variant="outline">{shopProviderLabels[connection.provider]}</Badge>
        {connection.testMode && <Badge variant="warning">Test mode</Badge>}
      </div>
      <div className="grid gap-1.5">
        <span className="text-xs font-medium text-muted-foreground">
          URL to paste into {shopProviderLabels[connection.provider]}
        </span>
        <div className="flex min-w-0 items-center gap-2">
          <code
            data-testid="shop-webhook-url"
            className="min-w-0 flex-1 rounded-md border border-input bg-muted/40 px-3 py-2 font-mono text-xs break-all"
          >
            {connection.webhookUrl}
          </code>
          <CopyButton
            value={connection.webhookUrl}
            label={`Copy the URL of ${connection.name}`}
            toastMessage="URL copied to clipboard"
          />
        </div>
      </div>
      <p className="text-sm text-muted-foreground">
        {productCount === 0
          ? 'No product mapped yet: edit the connection to map products to plans.'
          : `${productCount} ${productCount === 1 ? 'product' : 'products'} mapped`}
        {connection.secretHint && ` · Secret ends in ${connection.secretHint}`}
      </p>
      {waiting > 0 && (
        <p className="flex flex-wrap items-center gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm">
          <CircleAlert className="size-4 shrink-0 text-warning" aria-hidden="true" />
          <span className="font-medium">
            {waiting} {waiting === 1 ? 'order needs' : 'orders need'} mapping
          </span>
          <Button variant="link" size="sm" className="h-auto p-0" onClick={onShowWaitingOrders}>
            Show Them
          </Button>
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={isBusy || productCount === 0}
          onClick={() => onTest(connection)}
        >
          <Send aria-hidden="true" />
          Send Test Event
        </Button>
        <Button variant="outline" size="sm" disabled={isBusy} onClick={() => onEdit(connection)}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        {connection.provider === 'gumroad' && (
          <Button
            variant="outline"
            size="sm"
            disabled={isBusy}
            onClick={() => onRotate(connection)}
          >
            <RefreshCcw aria-hidden="true" />
            New URL
          </Button>
        )}
        <Button
          variant="outline"
          size="sm"
          disabled={isBusy}
          className="hover:bg-destructive/10 hover:text-destructive"
          onClick={() => onDelete(connection)}
        >
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
    </li>
  );
}
