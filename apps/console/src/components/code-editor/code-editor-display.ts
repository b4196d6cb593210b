import type { CodeFileVersion } from '@latchkey/contracts';

/** "812 B", "14.2 KB": a document's size in the units of its 200 KB limit. */
export function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** What made a version, in a few words. */
export function describeVersionOrigin(version: CodeFileVersion): string {
  if (version.origin === 'seed') return 'Starting text';
  const who = version.savedBy ? ` by ${version.savedBy}` : '';
  return version.origin === 'restore'
    ? `Restored from version ${version.restoredFrom ?? '?'}${who}`
    : `Saved${who}`;
}
