import { and, eq, sql } from 'drizzle-orm';
import { variableLimits } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { appUsers, appVariables, licenseKeys, plans } from '../../db/schema/index.ts';
import { licenseKeyDigest } from '../licenses/index.ts';
import type {
  KeyAuthBanRow,
  KeyAuthFileRow,
  KeyAuthSubscriptionRow,
  KeyAuthUserVariableRow,
  KeyAuthVariableRow,
} from './keyauth-application-export.ts';
import type { KeyAuthKeyRow, KeyAuthUserRow } from './keyauth-export.ts';
import type { ParsedImportFile } from './parse-import-file.ts';
import type { RememberedPlan } from './remembered-level-plans.ts';
import { createSubscriptionPlanner } from './subscription-planner.ts';
import type { KeptImportProblem } from './to-import-progress.ts';

/** Values per lookup statement: far below PostgreSQL's 65,535 parameters. */
const LOOKUP_CHUNK = 5_000;

/** A key without a level (KeyAuth's text and panel files may have none) is mapped as this. */
export const KEY_WITHOUT_LEVEL = '';

/** What the preview says of a file's rows beside the counts. */
export interface ImportReview {
  /** Rows the run will skip, each with its reason, in row order. */
  conflicts: KeptImportProblem[];
  /** The distinct KeyAuth levels, sorted. */
  levels: string[];
  /** level -> plan id, suggested from the application's earlier imports. */
  levelPlans: Record<string, string>;
}

/**
 * The rows a run would skip, and the levels with their suggested plans. Read here, before the
 * run, from what the application holds now; the run decides again, row by row, from what it
 * holds then (ON CONFLICT, NOT EXISTS), so this is a preview, never a promise.
 */
export async function reviewImportRows(
  db: Database,
  applicationId: number,
  ownerAccountId: string,
  parsed: ParsedImportFile,
  context: { serverSecret: string; remembered: ReadonlyMap<string, RememberedPlan> },
): Promise<ImportReview> {
  const none = { levels: [], levelPlans: {} };
  switch (parsed.kind) {
    case 'users': {
      const levels = userLevels(parsed.rows);
      return {
        conflicts: await userConflicts(db, applicationId, parsed.rows),
        levels,
        levelPlans: suggestLevelPlans(levels, context.remembered, () => true),
      };
    }
    case 'keys': {
      const levels = keyLevels(parsed.rows);
      const durations = keyDurationsByLevel(parsed.rows);
      return {
        conflicts: await keyConflicts(db, applicationId, parsed.rows, context.serverSecret),
        levels,
        // A key's length comes from its plan, so a plan is suggested only where it keeps it:
        // an archived plan takes no keys, and a lifetime plan would make 30-day keys lifetime.
        levelPlans: suggestLevelPlans(levels, context.remembered, (plan, level) => {
          const days = durations.get(level);
          const keepsLength =
            days === undefined || (days.size === 1 && days.has(plan.durationDays ?? -1));
          return !plan.isArchived && keepsLength;
        }),
      };
    }
    case 'subscriptions':
      return reviewSubscriptions(db, applicationId, parsed.rows, context.remembered);
    case 'variables':
      return { conflicts: await variableConflicts(db, applicationId, parsed.rows), ...none };
    case 'user-variables':
      return { conflicts: await userVariableConflicts(db, applicationId, parsed.rows), ...none };
    case 'blacklist':
      return {
        conflicts: await banConflicts(db, applicationId, ownerAccountId, parsed.rows),
        ...none,
      };
    case 'files':
      return { conflicts: fileConflicts(parsed.rows), ...none };
    case 'application':
      return { conflicts: [], ...none };
  }
}

function chunks<Item>(items: readonly Item[]): Item[][] {
  const result: Item[][] = [];
  for (let start = 0; start < items.length; start += LOOKUP_CHUNK) {
    result.push(items.slice(start, start + LOOKUP_CHUNK));
  }
  return result;
}

function suggestLevelPlans(
  levels: readonly string[],
  remembered: ReadonlyMap<string, RememberedPlan>,
  isSuitable: (plan: RememberedPlan, level: string) => boolean,
): Record<string, string> {
  const suggested: Record<string, string> = {};
  for (const level of levels) {
    const plan = remembered.get(level);
    if (plan && isSuitable(plan, level)) suggested[level] = plan.id;
  }
  return suggested;
}

// --- users and keys ---

async function userConflicts(
  db: Database,
  applicationId: number,
  rows: readonly KeyAuthUserRow[],
): Promise<KeptImportProblem[]> {
  const existing = new Set<string>();
  for (const chunk of chunks(rows.map((row) => row.username))) {
    const found = await db
      .select({ username: appUsers.username })
      .from(appUsers)
      .where(
        and(
          eq(appUsers.applicationId, applicationId),
          // One array parameter, not a list of 5,000 (drizzle's inArray).
          sql`${appUsers.username} = any(${sql.param(chunk)}::text[])`,
        ),
      );
    for (const { username } of found) existing.add(username);
  }
  return rows
    .filter((row) => existing.has(row.username))
    .map((row) => ({
      rowNumber: row.rowNumber,
      reason: `row ${row.rowNumber}: the application already has a user named '${row.username}'`,
    }));
}

async function keyConflicts(
  db: Database,
  applicationId: number,
  rows: readonly KeyAuthKeyRow[],
  serverSecret: string,
): Promise<KeptImportProblem[]> {
  const digests = rows.map((row) => licenseKeyDigest(row.key, serverSecret));
  const existing = new Set<string>();
  for (const chunk of chunks(digests)) {
    const found = await db
      .select({ keyDigest: licenseKeys.keyDigest })
      .from(licenseKeys)
      .where(
        and(
          eq(licenseKeys.applicationId, applicationId),
          sql`${licenseKeys.keyDigest} = any(${sql.param(chunk)}::text[])`,
        ),
      );
    for (const { keyDigest } of found) existing.add(keyDigest);
  }
  // The reason never quotes the key: it is a bearer secret.
  return rows
    .filter((_row, index) => existing.has(digests[index]!))
    .map((row) => ({
      rowNumber: row.rowNumber,
      reason: `row ${row.rowNumber}: the application already has this licence key`,
    }));
}

/**
 * What a user's subscription is mapped by: its level, or its name where the file has no level
 * (the panel's file names every subscription "default" and gives no level).
 */
export function subscriptionLevel(subscription: KeyAuthUserRow['subscriptions'][number]): string {
  return subscription.level ?? subscription.name;
}

function userLevels(rows: readonly KeyAuthUserRow[]): string[] {
  const levels = new Set<string>();
  for (const row of rows) {
    for (const subscription of row.subscriptions) levels.add(subscriptionLevel(subscription));
  }
  return [...levels].sort();
}

function keyLevels(rows: readonly KeyAuthKeyRow[]): string[] {
  return [...new Set(rows.map((row) => row.level ?? KEY_WITHOUT_LEVEL))].sort();
}

/** Each level's key lengths in whole days, where the file gives them. */
function keyDurationsByLevel(rows: readonly KeyAuthKeyRow[]): Map<string, Set<number>> {
  const durations = new Map<string, Set<number>>();
  for (const row of rows) {
    if (row.durationSeconds === null) continue;
    const level = row.level ?? KEY_WITHOUT_LEVEL;
    const days = durations.get(level) ?? new Set<number>();
    days.add(Math.round(row.durationSeconds / 86_400));
    durations.set(level, days);
  }
  return durations;
}

// --- subscriptions ---

async function reviewSubscriptions(
  db: Database,
  applicationId: number,
  rows: readonly KeyAuthSubscriptionRow[],
  remembered: ReadonlyMap<string, RememberedPlan>,
): Promise<ImportReview> {
  const levels = [...new Set(rows.map((row) => row.level))].sort();
  const planner = createSubscriptionPlanner({
    levels,
    mapped: {},
    remembered,
    plans: await db
      .select({ id: plans.id, name: plans.name })
      .from(plans)
      .where(and(eq(plans.applicationId, applicationId), eq(plans.isTrial, false))),
  });
  const conflicts: KeptImportProblem[] = [];
  const levelPlans: Record<string, string> = {};
  for (const row of rows) {
    const planned = planner.plan(row);
    if (planned.kind === 'new') {
      planner.record(row, { id: null, name: planned.planName });
      continue;
    }
    conflicts.push({ rowNumber: row.rowNumber, reason: planned.reason });
    planner.record(row, { id: planned.planId, name: planned.planName });
    if (planned.planId !== null) levelPlans[row.level] = planned.planId;
  }
  return { conflicts, levels, levelPlans };
}

// --- variables ---

async function variableConflicts(
  db: Database,
  applicationId: number,
  rows: readonly KeyAuthVariableRow[],
): Promise<KeptImportProblem[]> {
  const existing = new Set<string>();
  for (const chunk of chunks(rows.map((row) => row.name))) {
    const found = await db
      .select({ name: appVariables.name })
      .from(appVariables)
      .where(
        and(
          eq(appVariables.applicationId, applicationId),
          sql`${appVariables.name} = any(${sql.param(chunk)}::text[])`,
        ),
      );
    for (const { name } of found) existing.add(name);
  }
  return rows
    .filter((row) => existing.has(row.name))
    .map((row) => ({
      rowNumber: row.rowNumber,
      reason: `row ${row.rowNumber}: the application already has a variable named '${row.name}'`,
    }));
}

/**
 * A user variable is skipped when its user is not in the application yet (import the users
 * first), when the user holds that name already, or past the most one user may hold, as
 * write-imported-user-variables.ts decides in the run. Only the file's own users and pairs
 * are looked up, a chunk of rows at a time, so the answer never grows with the application.
 */
async function userVariableConflicts(
  db: Database,
  applicationId: number,
  rows: readonly KeyAuthUserVariableRow[],
): Promise<KeptImportProblem[]> {
  const heldByUser = new Map<string, number>();
  const heldPairs = new Set<string>();
  for (const chunk of chunks(rows)) {
    const pairs = JSON.stringify(chunk.map((row) => ({ username: row.username, name: row.name })));
    const users = await db.execute(sql`
      select u.username,
             (select count(*)::int from app_user_variables v where v.app_user_id = u.id) as held
      from app_users u
      where u.application_id = ${applicationId}
        and u.username in (select r.username from jsonb_to_recordset(${pairs}::jsonb)
                           as r(username text))`);
    for (const user of rowsOf<{ username: string; held: number }>(users)) {
      heldByUser.set(user.username, user.held);
    }
    const held = await db.execute(sql`
      select r.username, r.name
      from jsonb_to_recordset(${pairs}::jsonb) as r(username text, name text)
      join app_users u on u.application_id = ${applicationId} and u.username = r.username
      join app_user_variables v on v.app_user_id = u.id and v.name = r.name`);
    for (const pair of rowsOf<{ username: string; name: string }>(held)) {
      heldPairs.add(`${pair.username}\u0000${pair.name}`);
    }
  }
  const conflicts: KeptImportProblem[] = [];
  for (const row of rows) {
    const held = heldByUser.get(row.username);
    const prefix = `row ${row.rowNumber}: `;
    if (held === undefined) {
      conflicts.push({
        rowNumber: row.rowNumber,
        reason: `${prefix}the application has no user named '${row.username}' (import the users first)`,
      });
    } else if (heldPairs.has(`${row.username}\u0000${row.name}`)) {
      conflicts.push({
        rowNumber: row.rowNumber,
        reason: `${prefix}user '${row.username}' already has a variable named '${row.name}'`,
      });
    } else if (held >= variableLimits.userVariablesPerUser) {
      conflicts.push({
        rowNumber: row.rowNumber,
        reason: `${prefix}user '${row.username}' would hold more than ${variableLimits.userVariablesPerUser} variables`,
      });
    } else {
      heldByUser.set(row.username, held + 1);
    }
  }
  return conflicts;
}

// --- blacklist ---

/** As write-imported-bans.ts skips them: an active entry of the application or a global one. */
async function banConflicts(
  db: Database,
  applicationId: number,
  ownerAccountId: string,
  rows: readonly KeyAuthBanRow[],
): Promise<KeptImportProblem[]> {
  const blocked = new Set<number>();
  for (const chunk of chunks(rows)) {
    const bans = JSON.stringify(
      chunk.map((row) => ({ row_number: row.rowNumber, type: row.type, value: row.value })),
    );
    const found = await db.execute(sql`
      select b.row_number
      from jsonb_to_recordset(${bans}::jsonb) as b(row_number int, type text, value text)
      where exists (
        select 1 from blacklist_entries e
        where e.owner_account_id = ${ownerAccountId}::uuid
          and e.type = b.type
          and lower(e.value) = lower(b.value)
          and (b.type <> 'hwid' or e.value = b.value)
          and e.is_active
          and (e.application_id is null or e.application_id = ${applicationId}))`);
    for (const { row_number } of rowsOf<{ row_number: number }>(found)) blocked.add(row_number);
  }
  return rows
    .filter((row) => blocked.has(row.rowNumber))
    .map((row) => ({
      rowNumber: row.rowNumber,
      reason: `row ${row.rowNumber}: the blacklist already blocks ${row.type === 'ip' ? 'the IP' : 'the HWID'} '${row.value}'`,
    }));
}

// --- files ---

/**
 * Every file is skipped, and listed to upload again. KeyAuth keeps a URL and fetched it
 * itself (includes/misc/upload.php, file_get_contents with a check for "localhost" in the
 * text); Latchkey keeps the bytes, and this server does not fetch a URL read from an uploaded
 * file. It would be a request to wherever the file says, from inside the deployment: cloud
 * metadata addresses, the database, an internal admin page (server-side request forgery),
 * which checking the URL cannot rule out (DNS can answer differently at fetch time, a redirect
 * can lead anywhere). KeyAuth's URLs are often also links that expire (Discord's attachment
 * links), or large files that would have to stream into chunks inside an import batch. The
 * owner, who has the files, uploads each again in the application's Files tab.
 */
function fileConflicts(rows: readonly KeyAuthFileRow[]): KeptImportProblem[] {
  return rows.map((row) => ({
    rowNumber: row.rowNumber,
    reason:
      `row ${row.rowNumber}: upload '${row.name}' (KeyAuth file ${row.fileId}) again in the ` +
      'application\u2019s Files tab: Latchkey keeps a file\u2019s bytes and does not fetch ' +
      'the URL KeyAuth kept',
    file: { keyauthFileId: row.fileId, name: row.name, requiresSession: row.requiresSession },
  }));
}
