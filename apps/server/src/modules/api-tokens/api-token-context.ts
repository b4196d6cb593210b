import type { OwnerContext } from '../../http/request-context.ts';

/** What the token verbs need beyond the owner: the key their digests are made with. */
export type ApiTokenContext = OwnerContext & { serverSecret: string };
