import { ChevronRight, ShieldCheck } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';

/**
 * Node.js, with the `standardwebhooks` package. The raw body matters: JSON parsed and
 * serialised again is not the byte string that was signed.
 */
export const SIGNATURE_VERIFICATION_SNIPPET = `import express from 'express';
import { Webhook } from 'standardwebhooks';

const secret = process.env.LATCHKEY_WEBHOOK_SECRET; // whsec_... from the Signing secret dialog
// A generated secret (whsec_...) works as is; one you chose yourself is used as its UTF-8 bytes:
// new Webhook(new TextEncoder().encode(secret), { format: 'raw' })
const webhook = new Webhook(secret);

const app = express();
app.post('/latchkey-webhook', express.raw({ type: 'application/json' }), (req, res) => {
  try {
    // Checks webhook-id, webhook-timestamp (5 minutes' tolerance) and webhook-signature.
    const event = webhook.verify(req.body, req.headers);
    // event: { type, timestamp, data }. Retries carry the same webhook-id: skip ones you have seen.
    console.log(event.type, event.data.user.username);
    res.sendStatus(204);
  } catch {
    res.sendStatus(400);
  }
});
app.listen(3000);
`;

/** How a vendor's own server checks a JSON delivery's signature. */
export function SignatureHelpCard() {
  return (
    <Card className="py-0">
      <details className="group">
        <summary className="flex cursor-pointer list-none items-center gap-3 rounded-xl px-6 py-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden">
          <ShieldCheck className="size-5 shrink-0 text-primary" aria-hidden="true" />
          <span className="grid flex-1 gap-0.5">
            <span className="font-semibold">Verify our signature</span>
            <span className="text-sm text-muted-foreground">
              JSON deliveries follow Standard Webhooks: check them on your server in a few lines.
            </span>
          </span>
          <ChevronRight
            className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90 motion-reduce:transition-none"
            aria-hidden="true"
          />
        </summary>
        <CardContent className="grid gap-3 pb-6">
          <p className="text-sm text-muted-foreground">
            Every JSON delivery carries the headers <code>webhook-id</code>,{' '}
            <code>webhook-timestamp</code> and <code>webhook-signature</code>. Install the verifier
            with <code>npm install standardwebhooks</code>, then:
          </p>
          <div className="relative min-w-0">
            <pre className="max-h-96 overflow-auto rounded-lg border border-border bg-muted/40 p-4 pr-12 font-mono text-xs leading-relaxed">
              <code>{SIGNATURE_VERIFICATION_SNIPPET}</code>
            </pre>
            <CopyButton
              value={SIGNATURE_VERIFICATION_SNIPPET}
              label="Copy verification code"
              toastMessage="Code copied to clipboard"
              className="absolute top-2 right-2"
            />
          </div>
        </CardContent>
      </details>
    </Card>
  );
}
