import type { Webhook } from '@latchkey/contracts';
import { Eye, EyeOff } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { ItemDialog } from '@/components/ui/item-dialog.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useRevealWebhookSecret } from '@/hooks/use-webhooks.ts';

/** A webhook's signing secret: masked as listed, revealed and copied only on request. */
export function WebhookSecretDialog({
  webhook,
  ...openState
}: DialogOpenState & {
  webhook: Webhook | null;
}) {
  return (
    <ItemDialog
      item={webhook}
      {...openState}
      title="Signing Secret"
      description="JSON deliveries are signed with this secret (Standard Webhooks), so your server can check they come from Latchkey. Keep it private."
    >
      {/* Radix unmounts the content once closed, so a revealed secret is hidden again. */}
      {(shown) => <WebhookSecret key={shown.id} webhook={shown} />}
    </ItemDialog>
  );
}

function WebhookSecret({ webhook }: { webhook: Webhook }) {
  const id = useId();
  const [secret, setSecret] = useState<string | null>(null);
  const reveal = useRevealWebhookSecret();

  return (
    <div className="grid gap-2">
      <Label htmlFor={`${id}-secret`}>Secret</Label>
      <div className="flex items-center gap-2">
        <output
          id={`${id}-secret`}
          data-testid="webhook-secret"
          className="min-w-0 flex-1 rounded-md border border-input bg-muted/40 px-3 py-2 font-mono text-[0.8125rem] break-all"
        >
          {secret ?? webhook.secret}
        </output>
        {secret !== null && (
          <CopyButton
            value={secret}
            label="Copy secret"
            toastMessage="Secret copied to clipboard"
          />
        )}
      </div>
      <Button
        variant="outline"
        className="w-fit"
        disabled={reveal.isPending}
        onClick={() => {
          if (secret !== null) setSecret(null);
          else reveal.mutate(webhook.id, { onSuccess: (revealed) => setSecret(revealed) });
        }}
      >
        {reveal.isPending ? (
          <Spinner />
        ) : secret === null ? (
          <Eye aria-hidden="true" />
        ) : (
          <EyeOff aria-hidden="true" />
        )}
        {secret === null ? 'Reveal' : 'Hide'}
      </Button>
    </div>
  );
}
