/**
 * What the blacklist module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { createBlacklistEntry } from './create-blacklist-entry.ts';
export { deleteBlacklistEntry } from './delete-blacklist-entry.ts';
export {
  blacklistMatchCondition,
  type BlacklistMatcher,
  type BlacklistProbe,
  blacklistProbeParameters,
  createBlacklistMatcher,
  firstBlockedPart,
} from './find-blacklist-match.ts';
export { listBlacklistEntries } from './list-blacklist-entries.ts';
export { blacklistRoutes } from './routes.ts';
