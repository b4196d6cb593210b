import type { OwnerContext } from '../../http/request-context.ts';
import type { DestinationPolicy } from './destination-guard.ts';

/** What the verbs that save or reveal a webhook need beyond the owner's context. */
export interface WebhookContext extends OwnerContext {
  /** Seals and opens the signing secrets (lib/webhook-secret-crypto.ts). */
  serverSecret: string;
  destinationPolicy: DestinationPolicy;
}
