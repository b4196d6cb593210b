import type { CodeFileVersion } from '@latchkey/contracts';
import { onFirstUse } from '@/lib/on-first-use.ts';

const dateTimeFormat = onFirstUse(
  () => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }),
);

/** A date and time in the viewer's own time zone, e.g. "May 1, 2026, 9:01 AM". */
export function formatModified(isoDateTime: string): string {
  return dateTimeFormat().format(new Date(isoDateTime));
}

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
