import type { OwnerContext } from '../../http/request-context.ts';

/** What the owner's shop verbs need beyond the owner's context. */
export interface ShopOwnerContext extends OwnerContext {
  /** Seals and opens the connections' secrets (shop-secrets.ts). */
  serverSecret: string;
  /** Where the shop's webhook URL points: the public origin. */
  publicOrigin: string;
}
