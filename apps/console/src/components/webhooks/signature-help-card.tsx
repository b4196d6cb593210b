import { ShieldCheck } from 'lucide-react';
import { CopyableSnippet, FoldedHelpCard } from '@/components/ui/folded-help-card.tsx';

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
    <FoldedHelpCard
      icon={ShieldCheck}
      title="Verify our signature"
      summary="JSON deliveries follow Standard Webhooks: check them on your server in a few lines."
    >
      <p className="text-sm text-muted-foreground">
        Every JSON delivery carries the headers <code>webhook-id</code>,{' '}
        <code>webhook-timestamp</code> and <code>webhook-signature</code>. Install the verifier with{' '}
        <code>npm install standardwebhooks</code>, then:
      </p>
      <CopyableSnippet
        code={SIGNATURE_VERIFICATION_SNIPPET}
        copyLabel="Copy verification code"
        className="max-h-96"
      />
    </FoldedHelpCard>
  );
}
