import type { OwnerContext } from '../../http/request-context.ts';

/** What the verbs that mint, reveal or export keys need beyond the owner's context. */
export interface LicenseContext extends OwnerContext {
  /** Derives the digest and sealing keys (license-key-secrets.ts). */
  serverSecret: string;
}
