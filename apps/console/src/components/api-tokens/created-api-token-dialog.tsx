import type { CreatedApiToken } from '@latchkey/contracts';
import { Check, Copy, TriangleAlert } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
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
import { copyToClipboard } from '@/hooks/copy-to-clipboard.ts';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';

export const TOKEN_SHOWN_ONCE_WARNING =
  'This is the only time the token is shown. Copy it now and keep it somewhere safe, such as a secrets manager: once you close this dialog it cannot be shown again. If you lose it, revoke it and create another.';

/** Asked before the dialog closes with its token not copied. */
export const CLOSE_WITHOUT_COPYING_TITLE = 'Close without copying?';
export const CLOSE_WITHOUT_COPYING_WARNING =
  'The token is shown only once. Make sure you have copied it.';

const COPIED_CONFIRMATION_MS = 1500;

/**
 * The token just created, in full, once. Only its keyed digest is stored, so this answer is
 * the one place its text exists; the warning is the dialog's description, read out as it
 * opens. Every way out (Escape, Close, Done, a click beside it) loses the token, so until it
 * has been copied with the Copy button each of them asks first.
 */
export function CreatedApiTokenDialog({
  created,
  onClosed,
  ...openState
}: DialogOpenState & {
  created: CreatedApiToken | null;
  /** Once the dialog has gone (after its closing animation): the page forgets the token. */
  onClosed: () => void;
}) {
  const id = useId();
  const [isCopied, setIsCopied] = useState(false);
  // By id, not a flag: the next token shown in this dialog starts uncopied.
  const [copiedTokenId, setCopiedTokenId] = useState<string | null>(null);
  const hasCopiedToken = created !== null && copiedTokenId === created.id;
  const [isConfirmingClose, setIsConfirmingClose] = useState(false);

  const requestOpenChange = (open: boolean) => {
    if (open || hasCopiedToken) openState.onOpenChange(open);
    else setIsConfirmingClose(true);
  };

  useEffect(() => {
    if (!isCopied) return;
    const timeout = setTimeout(() => setIsCopied(false), COPIED_CONFIRMATION_MS);
    return () => clearTimeout(timeout);
  }, [isCopied]);

  return (
    <Dialog open={openState.open} onOpenChange={requestOpenChange}>
      <DialogContent className="sm:max-w-xl" onCloseAutoFocus={onClosed}>
        <DialogHeader>
          <DialogTitle>Copy Your API Token</DialogTitle>
          <p className="text-sm break-words text-muted-foreground">
            <strong className="font-medium text-foreground">{created?.name}</strong> is ready. Send
            it as <code className="font-mono text-xs">Authorization: Bearer lk_…</code> to the
            management API.
          </p>
        </DialogHeader>
        <DialogDescription
          asChild
          className="flex items-start gap-3 rounded-lg border border-warning/40 bg-warning/10 px-4 py-3 text-sm text-foreground"
        >
          <div>
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
            <p>{TOKEN_SHOWN_ONCE_WARNING}</p>
          </div>
        </DialogDescription>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-token`}>Token</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id={`${id}-token`}
              readOnly
              value={created?.token ?? ''}
              spellCheck={false}
              autoComplete="off"
              className="font-mono text-[0.8125rem]"
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button
              variant="outline"
              disabled={!created}
              onClick={async () => {
                if (
                  created &&
                  (await copyToClipboard(created.token, 'API token copied to clipboard'))
                ) {
                  setIsCopied(true);
                  setCopiedTokenId(created.id);
                }
              }}
            >
              {isCopied ? (
                <Check className="text-success" aria-hidden="true" />
              ) : (
                <Copy aria-hidden="true" />
              )}
              {isCopied ? 'Copied' : 'Copy'}
            </Button>
          </div>
        </div>
        <DialogFooter>
          <Button onClick={() => requestOpenChange(false)}>Done</Button>
        </DialogFooter>
        {/* Keep Open goes back to the token; Close gives it up. */}
        <ConfirmDialog
          open={isConfirmingClose}
          onOpenChange={setIsConfirmingClose}
          title={CLOSE_WITHOUT_COPYING_TITLE}
          description={CLOSE_WITHOUT_COPYING_WARNING}
          cancelLabel="Keep Open"
          confirmLabel="Close"
          onConfirm={() => openState.onOpenChange(false)}
          // Closing the token dialog too: focus is its to return, not this confirmation's.
          onCloseAutoFocus={(event) => {
            if (!openState.open) event.preventDefault();
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
