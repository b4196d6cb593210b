import {
  importLimits,
  type ImportKeyauthSettings,
  type ImportKind,
  type ImportProgress,
  type ImportStatus,
  type Plan,
} from '@latchkey/contracts';
import { formatFileSize } from '@/components/files/file-display.ts';

export const IMPORT_DIALOG_TITLE = 'Import from KeyAuth';
export const ACCEPTED_FORMATS_HINT =
  "KeyAuth's export of the kind chosen above: the panel's JSON (users and keys), the seller API's answer saved as a file, or a CSV of KeyAuth's table.";
export const IMPORT_CONTINUES_NOTE = 'The import continues if you close this dialog.';
export const IMPORT_FILE_REQUIRED = 'Choose a KeyAuth export file';
export const IMPORT_FILE_EMPTY = 'The file is empty';
export const IMPORT_FILE_TOO_LARGE = `The file is larger than ${formatFileSize(importLimits.maxFileBytes)}, the most an import takes`;
export const IMPORT_NOTHING_READABLE = 'The file has no readable rows: there is nothing to import';
/** What a file input offers first; a KeyAuth export is JSON, CSV or plain text. */
export const IMPORT_FILE_ACCEPT = '.json,.csv,.txt,application/json,text/csv,text/plain';

export const IMPORT_KIND_LABELS: Record<ImportKind, string> = {
  users: 'Users',
  keys: 'Licence keys',
  subscriptions: 'Subscriptions',
  variables: 'Variables',
  'user-variables': 'User variables',
  blacklist: 'Blacklist',
  files: 'Files',
  application: 'Application settings',
};

/** The nouns of a count of a file's rows: "1 user", "2 licence keys". */
const KIND_NOUNS: Record<ImportKind, [one: string, many: string]> = {
  users: ['user', 'users'],
  keys: ['licence key', 'licence keys'],
  subscriptions: ['subscription', 'subscriptions'],
  variables: ['variable', 'variables'],
  'user-variables': ['user variable', 'user variables'],
  blacklist: ['blacklist entry', 'blacklist entries'],
  files: ['file', 'files'],
  application: ['KeyAuth application', 'KeyAuth applications'],
};

/** The kinds whose rows carry KeyAuth levels, each mapped to a plan at the start. */
const KINDS_WITH_LEVELS: readonly ImportKind[] = ['users', 'keys', 'subscriptions'];

export function hasLevels(kind: ImportKind): boolean {
  return KINDS_WITH_LEVELS.includes(kind);
}

/** What the conflicts list of each kind holds: the rows the run will skip. */
const CONFLICT_TITLES: Record<ImportKind, string> = {
  users: 'Conflicts: usernames the application already has',
  keys: 'Conflicts: keys the application already has',
  subscriptions: 'Conflicts: subscriptions whose level leads to an existing plan',
  variables: 'Conflicts: variables the application already has',
  'user-variables': 'Conflicts: user variables without their user, or already held',
  blacklist: 'Conflicts: entries the blacklist already has',
  files: 'Files to upload again',
  application: 'Conflicts',
};

export function conflictsTitle(kind: ImportKind): string {
  return CONFLICT_TITLES[kind];
}

/** The server's format names (packages/contracts: ImportProgress.format), as a vendor knows them. */
const FORMAT_LABELS: Record<string, string> = {
  'panel-json': "the panel's JSON export",
  'seller-api-json': "the seller API's answer",
  'table-csv': 'a CSV of the table',
  'key-list-text': 'a list of keys, one a line',
};

export function describeImportFormat(format: string): string {
  return FORMAT_LABELS[format] ?? format;
}

export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

export function countOf(kind: ImportKind, count: number): string {
  const [one, many] = KIND_NOUNS[kind];
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** A key without a level is mapped under '' (the server's KEY_WITHOUT_LEVEL). */
export function describeLevel(level: string): string {
  return level === '' ? 'Keys without a level' : `Level “${level}”`;
}

export function validateImportFile(file: File | null): string | null {
  if (!file) return IMPORT_FILE_REQUIRED;
  if (file.size === 0) return IMPORT_FILE_EMPTY;
  if (file.size > importLimits.maxFileBytes) return IMPORT_FILE_TOO_LARGE;
  return null;
}

/** Conflicts are skipped when the import runs; everything else readable is created. */
export function rowsToCreate(progress: ImportProgress): number {
  return Math.max(0, progress.readableRows - progress.conflictRows);
}

/** How many problems the answer left out: it lists the first 100, its counts are exact. */
export function unlistedCount(listed: number, total: number): number {
  return Math.max(0, total - listed);
}

/**
 * A problem's reason without the "row N: " it starts with when N is its own row number: the
 * list shows the row number beside it already. Other reasons (a subscription's) keep theirs.
 */
export function describeProblemReason(problem: ImportProgress['conflicts'][number]): string {
  const prefix = `row ${problem.rowNumber}: `;
  return problem.reason.toLowerCase().startsWith(prefix)
    ? problem.reason.slice(prefix.length)
    : problem.reason;
}

/**
 * The plans of the file's own levels. A finished subscriptions import's map also holds the
 * subscription names it mapped, which a start refuses: a resume sends only the levels.
 */
export function levelPlansOfLevels(progress: ImportProgress): Record<string, string> {
  return Object.fromEntries(
    Object.entries(progress.levelPlans).filter(([level]) => progress.levels.includes(level)),
  );
}

/**
 * The plan a level starts on when the server suggests none (no earlier import mapped it), for
 * the kinds whose unmapped level loses something (a user's subscription, a key's plan): an
 * active plan named like the level, else the one holding its `LEVEL_<n>` entitlement (what a
 * subscriptions import makes). A subscriptions import's unmapped level becomes a new plan, so
 * it is left to the owner.
 */
export function defaultPlanOfLevel(
  kind: ImportKind,
  level: string,
  plans: readonly Plan[],
): Plan | undefined {
  if ((kind !== 'users' && kind !== 'keys') || level.trim() === '') return undefined;
  const name = level.trim().toLowerCase();
  const entitlement = `LEVEL_${level.trim()}`;
  return (
    plans.find((plan) => plan.name.trim().toLowerCase() === name) ??
    plans.find((plan) => plan.entitlements.includes(entitlement))
  );
}

/** A users import's levels left without a plan: their subscriptions are not imported. */
export function levelsDroppingSubscriptions(
  progress: ImportProgress,
  levelPlans: Readonly<Record<string, string>>,
): string[] {
  return progress.kind === 'users' ? findUnmappedLevels(progress.levels, levelPlans) : [];
}

/** Every level a licence key import still needs a plan for. */
export function findUnmappedLevels(
  levels: readonly string[],
  levelPlans: Readonly<Record<string, string>>,
): string[] {
  return levels.filter((level) => !levelPlans[level]);
}

/**
 * Keys belong to a plan, so each of their levels needs one (the server refuses the start
 * otherwise); a user's level without a plan simply grants no subscription, and a
 * subscription's level without one becomes a new plan.
 */
export function validateLevelPlans(
  progress: ImportProgress,
  levelPlans: Readonly<Record<string, string>>,
): string | null {
  if (progress.readableRows === 0) return IMPORT_NOTHING_READABLE;
  if (progress.kind !== 'keys') return null;
  const unmapped = findUnmappedLevels(progress.levels, levelPlans);
  if (unmapped.length === 0) return null;
  return `Choose a plan for every level of the keys: ${unmapped.map(describeLevel).join(', ')}`;
}

/** The request's map: only the levels given a plan ("No subscription", "A new plan" are left out). */
export function toLevelPlansRequest(
  levelPlans: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(levelPlans).filter(([, planId]) => planId !== ''));
}

/** Rows handled of the readable ones, for the progress bar. */
export function describeRowProgress(progress: ImportProgress): string {
  return `${formatCount(progress.doneRows)} of ${formatCount(progress.readableRows)} rows`;
}

export function progressPercent(progress: ImportProgress): number {
  if (progress.readableRows === 0) return progress.status === 'done' ? 100 : 0;
  return (progress.doneRows / progress.readableRows) * 100;
}

/** What the rows a start creates are: a subscriptions import makes plans. */
function countCreated(kind: ImportKind, count: number): string {
  if (kind === 'subscriptions') return `${formatCount(count)} ${count === 1 ? 'plan' : 'plans'}`;
  return countOf(kind, count);
}

const KEYAUTH_SETTINGS_OUTCOMES: Record<ImportKeyauthSettings['outcome'], string> = {
  pending: 'KeyAuth settings not written yet',
  written: 'KeyAuth settings written',
  unchanged: 'the application already had these KeyAuth settings',
  refused: 'KeyAuth settings not written',
};

/**
 * What a start will do, after "The file was read as …: ". A files import creates nothing (each
 * file is uploaded again by the owner); an application import writes settings, not rows.
 */
export function describePreviewOutcome(preview: ImportProgress): string {
  if (preview.kind === 'files') {
    return `${countOf('files', preview.readableRows)} to upload again; the import creates none`;
  }
  if (preview.kind === 'application') {
    return "the application's KeyAuth settings are written when it starts";
  }
  return `${countCreated(preview.kind, rowsToCreate(preview))} will be created`;
}

/** What a finished import did, as its toast and summary say it. */
export function describeImportResult(progress: ImportProgress): string {
  if (progress.kind === 'files') {
    return `${countOf('files', progress.readableRows)} to upload again`;
  }
  if (progress.kind === 'application') {
    return KEYAUTH_SETTINGS_OUTCOMES[
      progress.keyauthSettings?.outcome ?? (progress.createdRows > 0 ? 'written' : 'refused')
    ];
  }
  return `${countCreated(progress.kind, progress.createdRows)} created, ${formatCount(progress.skippedRows)} skipped`;
}

/** The success toast of a finished import. */
export function describeImportDone(progress: ImportProgress): string {
  return `Import finished: ${describeImportResult(progress)}`;
}

/** An import past its preview: running, or ended one way or the other. */
export type StartedImport = ImportProgress & { status: Exclude<ImportStatus, 'previewed'> };

export function isStarted(progress: ImportProgress): progress is StartedImport {
  return progress.status !== 'previewed';
}
