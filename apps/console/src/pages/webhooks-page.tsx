import type { Webhook } from '@latchkey/contracts';
import { Webhook as WebhookIcon } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';
import { ConfirmSubject, ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { SignatureHelpCard } from '@/components/webhooks/signature-help-card.tsx';
import { TestWebhookMenu } from '@/components/webhooks/test-webhook-menu.tsx';
import { WebhookDeliveriesDialog } from '@/components/webhooks/webhook-deliveries-dialog.tsx';
import {
  CreateWebhookDialog,
  EditWebhookDialog,
} from '@/components/webhooks/webhook-form-dialog.tsx';
import { WebhookSecretDialog } from '@/components/webhooks/webhook-secret-dialog.tsx';
import { webhooksTable } from '@/components/webhooks/webhooks-table.tsx';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { useDeleteWebhook, useWebhooks } from '@/hooks/use-webhooks.ts';

export const WEBHOOKS_FETCH_ERROR = 'Failed to fetch webhooks';

/** /webhooks: the webhooks table, its dialogs and the Test Webhook menu. */
export function WebhooksPage() {
  const webhooksQuery = useWebhooks();
  const deleteWebhook = useDeleteWebhook();
  const editing = useDialogTarget<Webhook>();
  const deleting = useDialogTarget<Webhook>();
  const viewingDeliveries = useDialogTarget<Webhook>();
  const viewingSecret = useDialogTarget<Webhook>();

  return (
    <SignedInLayout>
      <div className="flex flex-col gap-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <PageHeading
            title="Webhooks"
            description="Get logins, failures and blocked attempts of your users in Discord, Slack or your own server within seconds."
          />
          <div className="flex flex-wrap gap-2">
            <TestWebhookMenu />
            <CreateWebhookDialog />
          </div>
        </div>

        <SectionCard
          title="Your Webhooks"
          description={
            <>
              Each webhook receives the events it subscribes to, from every application or one.
              Deliveries that fail are retried; see each one in its delivery log.
            </>
          }
        >
          <PagedDataTable
            query={webhooksQuery}
            table={webhooksTable({
              busyWebhookId: deleteWebhook.isPending ? deleteWebhook.variables : null,
              onShowDeliveries: viewingDeliveries.open,
              onShowSecret: viewingSecret.open,
              onEdit: editing.open,
              onDelete: deleting.open,
            })}
            loadingLabel="Loading webhooks"
            errorTitle="Error loading webhooks"
            describeError={(error) => getErrorToastMessage(error, WEBHOOKS_FETCH_ERROR)}
            empty={
              <EmptyState
                icon={WebhookIcon}
                title="No webhooks configured"
                description="Create a webhook to be told about logins, failed attempts and blocked users as they happen."
              />
            }
          />
        </SectionCard>

        <SignatureHelpCard />
      </div>

      <EditWebhookDialog webhook={editing.target} {...editing.dialogProps} />
      <WebhookDeliveriesDialog
        webhook={viewingDeliveries.target}
        {...viewingDeliveries.dialogProps}
      />
      <WebhookSecretDialog webhook={viewingSecret.target} {...viewingSecret.dialogProps} />
      <ConfirmTargetDialog
        dialog={deleting}
        title="Delete webhook?"
        description={(webhook) => (
          <>
            <ConfirmSubject>{webhook.url}</ConfirmSubject> will receive no more events, and its
            delivery log is deleted with it.
          </>
        )}
        confirmLabel="Delete Webhook"
        onConfirm={(webhook) => deleteWebhook.mutate(webhook.id)}
      />
    </SignedInLayout>
  );
}
