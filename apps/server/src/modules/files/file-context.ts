import type { OwnerContext } from '../../http/request-context.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import type { FileStorage } from './file-storage.ts';

/** What the owner's file verbs need beyond the owner's context. */
export interface FileContext extends OwnerContext {
  storage: FileStorage;
  /** The client API caches the current release with the application: a change must drop it. */
  applicationEvents: ApplicationEvents;
}
