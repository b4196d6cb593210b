import type { OwnerContext } from '../../http/request-context.ts';

/** What the import verbs need beyond the owner's context. */
export interface ImportContext extends OwnerContext {
  /** Seals the kept rows and derives licence keys' digests and sealing keys. */
  serverSecret: string;
}
