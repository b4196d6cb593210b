import { shopProviderLabels, type CreatedShopConnection } from '@latchkey/contracts';
import { TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { SHOP_URL_WORDS, ShopProviderSteps } from './shop-provider-guides.tsx';

export const SHOP_SECRET_SHOWN_ONCE =
  'This is the only time the generated signing secret is shown: paste it into Lemon Squeezy now. Once this dialog is closed it cannot be shown again; to change it, type a new one in both places.';

/**
 * What to paste into the shop once a connection is made: its URL, and a signing secret that
 * Latchkey generated, whole, this once (only a sealed copy is kept, never answered again).
 */
export function ShopConnectedDialog({
  created,
  ...openState
}: DialogOpenState & { created: CreatedShopConnection | null }) {
  const id = useId();
  if (!created) return null;
  const provider = shopProviderLabels[created.provider];

  return (
    <Dialog {...openState}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Shop Connected</DialogTitle>
          <DialogDescription>
            {created.name} is connected. Paste its URL into {provider} as the steps below say.
          </DialogDescription>
        </DialogHeader>
        <CopyableField
          id={`${id}-url`}
          label="URL to paste"
          value={created.webhookUrl}
          copyLabel="Copy URL"
          toastMessage="URL copied to clipboard"
        />
        {created.secret && (
          <>
            <p className="flex items-start gap-3 rounded-lg border border-warning/40 bg-warning/10 px-4 py-3 text-sm">
              <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
              <span>{SHOP_SECRET_SHOWN_ONCE}</span>
            </p>
            <CopyableField
              id={`${id}-secret`}
              label="Signing secret"
              value={created.secret}
              copyLabel="Copy secret"
              toastMessage="Secret copied to clipboard"
            />
          </>
        )}
        <ShopProviderSteps provider={created.provider} urlWords={SHOP_URL_WORDS.shownAbove} />
        <DialogFooter>
          <Button onClick={() => openState.onOpenChange(false)}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function CopyableField({
  id,
  label,
  value,
  copyLabel,
  toastMessage,
}: {
  id: string;
  label: string;
  value: string;
  copyLabel: string;
  toastMessage: string;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-center gap-2">
        <Input
          id={id}
          readOnly
          value={value}
          spellCheck={false}
          className="font-mono text-[0.8125rem]"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton value={value} label={copyLabel} toastMessage={toastMessage} />
      </div>
    </div>
  );
}
