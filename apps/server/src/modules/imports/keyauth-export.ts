/*
 * Reads the export files KeyAuth (keyauth.cc) gives a seller, so a vendor moving to Latchkey
 * can preview and import their users and licence keys. Pure: bytes in, normalized rows and
 * problems out; nothing is stored, logged or fetched.
 *
 * What the files are. Sources: KeyAuth/KeyAuth-Source-Code at 704ec0b (the panel's public
 * source) and its history; KeyAuth/keyauth-docs for the seller API. The hosted service's newer
 * seller API is not public: its code left that repository in f3dc6b9 (2022-08).
 *
 * Users
 * - Panel "Export Users" -> KeyAuthUsers.json (app/download-types.php, case 'users'):
 *   {"users":[{"username","email","password","hwid","banned","ip"}],
 *    "subscription":[{"user","subscription":"default","expiry"}]}.
 *   Line 48 writes the literal "default" for every subscription name, so real names are lost;
 *   the file has no createdate/lastlogin.
 * - Seller API fetchallusers (api/seller/index.php before f3dc6b9; example answer in
 *   keyauth-docs seller/users.md): {"success":true,"message":…,"users":[…]} with every column
 *   of `users`: id, username, email, password, hwid, app, owner, createdate, lastlogin, banned,
 *   ip, cooldown. That code answered at most 520 users (LIMIT 520) and no subscriptions.
 *   `app` is the application's secret (below): it never enters a row.
 * - Columns (db_structure.sql): createdate/lastlogin int Unix seconds (PHP time());
 *   subs.expiry varchar of Unix seconds; banned varchar(99) = the ban reason or NULL
 *   (includes/misc/user.php ban()); email varchar(40) = SHA-1 of the lower-cased address
 *   (includes/api/1.0/index.php:88, SHA(LOWER(...))); hwid varchar(2000), one or more HWIDs run
 *   together (the panel and addhwiduser append).
 * - Passwords: password_hash(…, PASSWORD_BCRYPT) (includes/api/1.0/index.php:86,
 *   includes/misc/user.php:321 and :464), i.e. "$2y$10$…"; NULL for a user a seller made
 *   without one until its first login sets it (includes/api/1.0/index.php:145-147). The panel's
 *   own import stores the file's password verbatim (app/pages/users.php:122), so a plain
 *   password can exist in an export.
 * - A paused subscription's expiry holds the seconds left, not a date (pauseUser,
 *   includes/misc/user.php:139); the export does not say which rows are paused.
 *
 * Keys
 * - Panel "Export Keys" since 2023-12 -> KeyAuthKeys.json, a bare array
 *   [{"key","level","expiry": expires / 86400}] (app/download-types.php:75-79): a duration in
 *   days, fractional for odd lengths (a reseller's "3 Month" is 7.862e6 s); no status.
 * - Panel before 2023-12 (app/license-download.php, dashboard/app/licenses/download.php) and
 *   the reseller bulk download: KeyAuthKeys.txt / KeyAuthBulk.txt, the keys alone, one a line,
 *   CRLF. Seller API fetchallkeys&format=text: the same with LF; its substr(…, 0, -2) drops the
 *   last key's last character, which nothing here can repair.
 * - Seller API fetchallkeys: {"success":true,"message":…,"keys":[…]} with every column of
 *   `keys`: key, note, expires (seconds: createLicense multiplies days by 86400), status
 *   ("Not Used" | "Used" | "Banned"), level, genby, gendate and usedon (Unix seconds), usedby,
 *   banned (the reason), app (the secret, never read). keyauth-docs seller/licenses.md shows
 *   an older answer with extra columns, which are ignored.
 * - Values arrive as strings or numbers depending on PHP's MySQL driver, and as "" where a
 *   column is empty in the docs' examples; both are accepted.
 *
 * Tables as CSV ('table-csv'). No KeyAuth code writes CSV; a vendor who self-hosts KeyAuth can
 * export its MySQL tables with a database tool: a header row naming the columns, then one row per
 * record (phpMyAdmin's CSV: "," with every value quoted and NULL written bare; its "CSV for MS
 * Excel" on Windows: ";" and CRLF; phpmyadmin/phpmyadmin libraries/classes/Plugins/Export/
 * ExportCsv.php). Read by csv-rows.ts; a record's row number is the line where it starts.
 * Columns, from db_structure.sql at 704ec0b:
 * - `users` (:315-328): id, username, email, password, hwid, app, owner, createdate, lastlogin,
 *   banned, ip, cooldown: the columns fetchallusers answers, so each row is read as one of its
 *   users.
 * - `keys` (:202-215): id, key, note, expires, status, level, genby, gendate, usedon, usedby,
 *   app, banned: the columns fetchallkeys answers, read the same way.
 * - A user's subscriptions are not in `users`: `subs` (:277-285: id, user, subscription, expiry,
 *   app, key, paused) links a username to a subscription name, and `subscriptions` (:287-292: id,
 *   name, level, app) gives the name its level; `subs.paused` (:284) marks the paused rows the
 *   panel's file cannot tell apart. A users CSV therefore has no subscriptions. A header naming
 *   `subscription` is the `subs` table or a query joining it (its rows repeat users, and
 *   `subs.key` is a licence key, not a key to import), so it is refused, not half read.
 * - `app` is the application's secret and is never read; other columns are ignored, and a header
 *   naming one column twice is refused.
 * Not readable: mysqldump --tab and a bare SELECT … INTO OUTFILE write no header row and escape
 * with backslashes, not RFC 4180 quotes.
 *
 * The application's secret. Every table's `app` column holds `apps.secret`, the application's
 * secret (64 hex: hash('sha256', …) in app/pages/manage-apps.php:65, renamed everywhere when the
 * seller resets it, :157-167), which API 1.2 signs its answers with (hash_hmac in
 * api/1.2/index.php). The seller API's users and keys answers and every table's CSV carry it on
 * each row, so those files are read for it (`application`), apart from the rows: the rows never
 * hold it, and a file whose rows hold two different secrets mixes applications, so neither is
 * taken. A value that is not 64 hex is not KeyAuth's secret and is ignored. The owner id and
 * name are only in the `apps` table (keyauth-application-export.ts).
 *
 * Not found anywhere: the current hosted seller API's answers.
 */
import { isCleanText, KEYAUTH_SECRET_PATTERN } from '@latchkey/contracts';
import { z } from 'zod';
import { type CsvDelimiter, type CsvRecord, CsvSyntaxError, readCsvRecords } from './csv-rows.ts';
import { checkPasswordHash } from '../../lib/password-hash-bounds.ts';

export const KEYAUTH_EXPORT_MAX_ROWS = 200_000;

/** The whole file cannot be used: wrong encoding, an unknown shape, or too many rows. */
export class UnreadableExportError extends Error {
  override name = 'UnreadableExportError';
}

const USERS_EXPECTED =
  'a KeyAuth users export: the JSON file from the panel\'s "Export Users" ' +
  '({"users": [...], "subscription": [...]}), the seller API\'s fetchallusers answer ' +
  '({"success": true, "users": [...]}), or a CSV export of the users table ' +
  '(a header row naming its columns, with "username")';

const KEYS_EXPECTED =
  'a KeyAuth keys export: the JSON file from the panel\'s "Export Keys" ([{"key": ...}]), ' +
  'the seller API\'s fetchallkeys answer ({"success": true, "keys": [...]}), ' +
  'a CSV export of the keys table (a header row naming its columns, with "key"), ' +
  'or a text file with one key per line';

/** `keys.key` is varchar(70) in KeyAuth, so anything longer did not come from there. */
const KEYAUTH_KEY_MAX_LENGTH = 70;

/**
 * KeyAuth did not exist before 2020, so an expiry below this cannot be a date: it is the
 * seconds left of a paused subscription.
 */
const KEYAUTH_FIRST_YEAR_START = 1_577_836_800;

const SECONDS_PER_DAY = 86_400;
/** The largest Unix time a JavaScript Date can hold. */
const MAX_UNIX_SECONDS = 8.64e12;

const nullableText = z.string().nullable();
const rowNumber = z.number().int().positive();

export const keyAuthSubscriptionSchema = z.object({
  name: z.string().min(1),
  level: nullableText,
  /** Null for a paused subscription, which has `pausedSecondsLeft` instead. */
  expiresAt: z.date().nullable(),
  pausedSecondsLeft: z.number().int().nonnegative().nullable(),
});
export type KeyAuthSubscription = z.infer<typeof keyAuthSubscriptionSchema>;

export const keyAuthUserRowSchema = z.object({
  rowNumber,
  username: z.string().min(1),
  /** Only a bcrypt or argon2 hash as found; a plain password is never kept. */
  passwordHash: nullableText,
  hadPlainPassword: z.boolean(),
  hwid: nullableText,
  /** An address, where the file has one instead of KeyAuth's usual SHA-1. */
  email: nullableText,
  emailSha1: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .nullable(),
  lastIp: nullableText,
  /** The reseller (or "SellerAPI") who made the user. */
  createdBy: nullableText,
  createdAt: z.date().nullable(),
  lastLoginAt: z.date().nullable(),
  isBanned: z.boolean(),
  banReason: nullableText,
  subscriptions: z.array(keyAuthSubscriptionSchema),
});
export type KeyAuthUserRow = z.infer<typeof keyAuthUserRowSchema>;

export const keyAuthKeyStatusSchema = z.enum(['unused', 'used', 'banned']);
export type KeyAuthKeyStatus = z.infer<typeof keyAuthKeyStatusSchema>;

export const keyAuthKeyRowSchema = z.object({
  rowNumber,
  key: z.string().min(1).max(KEYAUTH_KEY_MAX_LENGTH),
  level: nullableText,
  note: nullableText,
  durationSeconds: z.number().int().nonnegative().nullable(),
  /** Null where the file does not say (the panel's files). */
  status: keyAuthKeyStatusSchema.nullable(),
  banReason: nullableText,
  usedBy: nullableText,
  createdBy: nullableText,
  createdAt: z.date().nullable(),
  usedAt: z.date().nullable(),
});
export type KeyAuthKeyRow = z.infer<typeof keyAuthKeyRowSchema>;

/**
 * `rowNumber` is the 1-based position in the file: the element of the JSON list, the line
 * of a text file, or the line where a CSV record starts (the header is line 1). A problem in the panel file's "subscription" list counts in that list, and
 * its reason says so.
 */
export const unreadableRowSchema = z.object({ rowNumber, reason: z.string() });
export type UnreadableRow = z.infer<typeof unreadableRowSchema>;

export const keyAuthUsersFormatSchema = z.enum(['panel-json', 'seller-api-json', 'table-csv']);
export type KeyAuthUsersFormat = z.infer<typeof keyAuthUsersFormatSchema>;

/**
 * The application's KeyAuth settings a file holds: the secret from its rows' `app` column, or
 * all three from the `apps` table. `rowNumber` is where they were read; `problem` says why they
 * cannot be used whatever the application holds (the rows name two secrets).
 */
export const keyAuthApplicationSchema = z.object({
  rowNumber,
  ownerId: nullableText,
  name: nullableText,
  secret: z.string().regex(KEYAUTH_SECRET_PATTERN).nullable(),
  problem: nullableText,
});
export type KeyAuthApplication = z.infer<typeof keyAuthApplicationSchema>;

export const keyAuthKeysFormatSchema = z.enum([
  'panel-json',
  'seller-api-json',
  'table-csv',
  'key-list-text',
]);
export type KeyAuthKeysFormat = z.infer<typeof keyAuthKeysFormatSchema>;

export interface KeyAuthUsersParse {
  format: KeyAuthUsersFormat;
  rows: KeyAuthUserRow[];
  unreadable: UnreadableRow[];
  application: KeyAuthApplication | null;
}

export interface KeyAuthKeysParse {
  format: KeyAuthKeysFormat;
  rows: KeyAuthKeyRow[];
  unreadable: UnreadableRow[];
  application: KeyAuthApplication | null;
}

export function parseKeyAuthUsers(bytes: Uint8Array | string): KeyAuthUsersParse {
  const text = decodeText(bytes);
  const csvDelimiter = looksLikeJson(text) ? null : tableCsvDelimiter(text, 'username');
  if (csvDelimiter) {
    return {
      format: 'table-csv',
      ...readTableCsv(text, csvDelimiter, USERS_TABLE_COLUMNS, 'users', userRowReader),
    };
  }

  const document = parseJsonDocument(text, USERS_EXPECTED);
  if (!isRecord(document)) throw notRecognised(USERS_EXPECTED);
  refuseKeyAuthErrorAnswer(document);
  const users = listAt(document, 'users', USERS_EXPECTED);
  const isPanelFile = 'subscription' in document;
  const subscriptions = isPanelFile ? listAt(document, 'subscription', USERS_EXPECTED) : [];

  const result = readRows(users, userRowReader);
  if (isPanelFile) {
    attachPanelSubscriptions(subscriptions, result.rows, result.unreadable);
  }
  return {
    format: isPanelFile ? 'panel-json' : 'seller-api-json',
    rows: result.rows,
    unreadable: result.unreadable,
    // The panel's file has no `app` column (app/download-types.php:33-40).
    application: isPanelFile ? null : readApplicationSecret(users.map(appColumnOf)),
  };
}

export function parseKeyAuthKeys(bytes: Uint8Array | string): KeyAuthKeysParse {
  const text = decodeText(bytes);
  if (!looksLikeJson(text)) {
    const csvDelimiter = tableCsvDelimiter(text, 'key');
    if (!csvDelimiter) return parseKeyList(text);
    return {
      format: 'table-csv',
      ...readTableCsv(text, csvDelimiter, KEYS_TABLE_COLUMNS, 'keys', sellerApiKeyRowReader),
    };
  }

  const document = parseJsonDocument(text, KEYS_EXPECTED);
  if (Array.isArray(document)) {
    checkRowCount(document.length);
    return { format: 'panel-json', ...readRows(document, panelKeyRowReader), application: null };
  }
  if (!isRecord(document)) throw notRecognised(KEYS_EXPECTED);
  refuseKeyAuthErrorAnswer(document);
  const keys = listAt(document, 'keys', KEYS_EXPECTED);
  return {
    format: 'seller-api-json',
    ...readRows(keys, sellerApiKeyRowReader),
    application: readApplicationSecret(keys.map(appColumnOf)),
  };
}

// --- the file as a whole ---

export function decodeText(bytes: Uint8Array | string): string {
  let text: string;
  if (typeof bytes === 'string') {
    text = bytes.startsWith('\uFEFF') ? bytes.slice(1) : bytes;
  } else {
    try {
      // The decoder drops a leading byte-order mark by itself.
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new UnreadableExportError(
        'The file is not valid UTF-8 text. KeyAuth exports are UTF-8 JSON, CSV or text; upload the ' +
          'file exactly as KeyAuth gave it, without opening and re-saving it in another program.',
      );
    }
  }
  // KeyAuth's panel answers an empty file when PHP's json_encode fails on a row.
  if (text.trim() === '') throw new UnreadableExportError('The file is empty.');
  return text;
}

export function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

export function parseJsonDocument(text: string, expected: string): unknown {
  if (!looksLikeJson(text)) throw notRecognised(expected);
  try {
    return JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the file, which may hold keys or hashes: it is not repeated.
    throw new UnreadableExportError(
      `The file starts like JSON but is not valid JSON (is it cut short?); expected ${expected}.`,
    );
  }
}

export function notRecognised(expected: string): UnreadableExportError {
  return new UnreadableExportError(`The file is not recognisable; expected ${expected}.`);
}

/** A saved seller API answer can be KeyAuth's refusal ("No Users Found", a bad seller key). */
export function refuseKeyAuthErrorAnswer(document: Record<string, unknown>): void {
  if (document.success !== false) return;
  const message = typeof document.message === 'string' ? quote(document.message, 120) : 'none';
  throw new UnreadableExportError(
    `The file is an error answer from KeyAuth, not an export (KeyAuth said: ${message}).`,
  );
}

export function listAt(
  document: Record<string, unknown>,
  field: string,
  expected: string,
): unknown[] {
  const list = document[field];
  if (!Array.isArray(list)) throw notRecognised(expected);
  checkRowCount(list.length);
  return list;
}

export function checkRowCount(count: number): void {
  if (count > KEYAUTH_EXPORT_MAX_ROWS) {
    throw new UnreadableExportError(
      `The file has ${count} rows; at most ${KEYAUTH_EXPORT_MAX_ROWS} can be imported at once. ` +
        'Split it into smaller files.',
    );
  }
}

// --- tables as CSV ---

/** db_structure.sql:316-327, without `app` (the application's secret). */
const USERS_TABLE_COLUMNS: ReadonlySet<string> = new Set([
  'id',
  'username',
  'email',
  'password',
  'hwid',
  'owner',
  'createdate',
  'lastlogin',
  'banned',
  'ip',
  'cooldown',
]);

/** db_structure.sql:203-214, without `app` (the application's secret). */
const KEYS_TABLE_COLUMNS: ReadonlySet<string> = new Set([
  'id',
  'key',
  'note',
  'expires',
  'status',
  'level',
  'genby',
  'gendate',
  'usedon',
  'usedby',
  'banned',
]);

/** `subs.subscription` (db_structure.sql:280): in neither `users` nor `keys`. */
const SUBS_ONLY_COLUMN = 'subscription';

function columnName(field: string | null): string {
  return (field ?? '').trim().toLowerCase();
}

/**
 * The delimiter, if the first line is a header naming `keyColumn`. Column names hold neither
 * "," nor ";", so the one the header line uses more is the delimiter.
 */
export function tableCsvDelimiter(text: string, keyColumn: string): CsvDelimiter | null {
  const lineEnd = text.search(/[\r\n]/);
  const firstLine = lineEnd === -1 ? text : text.slice(0, lineEnd);
  const delimiter = count(firstLine, ';') > count(firstLine, ',') ? ';' : ',';
  let header: CsvRecord | undefined;
  try {
    header = readCsvRecords(firstLine, delimiter)[0];
  } catch (error) {
    if (error instanceof CsvSyntaxError) return null;
    throw error;
  }
  const isHeader = header?.fields.some((field) => columnName(field) === keyColumn) ?? false;
  return isHeader ? delimiter : null;
}

function count(text: string, character: string): number {
  return text.split(character).length - 1;
}

/** A CSV row whose field count differs from the header's; unreadable, but not the file. */
class MisalignedCsvRow {
  constructor(readonly fieldCount: number) {}
}

export function readTableCsv<Row>(
  text: string,
  delimiter: CsvDelimiter,
  tableColumns: ReadonlySet<string>,
  tableName: string,
  reader: RowReader<Row>,
  { requiredColumns = [] }: { requiredColumns?: readonly string[] } = {},
): { rows: Row[]; unreadable: UnreadableRow[]; application: KeyAuthApplication | null } {
  let records: CsvRecord[];
  try {
    records = readCsvRecords(text, delimiter);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    // The message names a line, never the file's text, which may hold keys or hashes.
    throw new UnreadableExportError(
      `The CSV file cannot be read (${error.message}). Quoted values must write a quote as "" ` +
        '(RFC 4180); a file escaped with backslashes, as SELECT … INTO OUTFILE writes by ' +
        'default, cannot be read.',
    );
  }
  const [header, ...dataRecords] = records;
  if (!header) throw new UnreadableExportError('The file is empty.');
  const columns = header.fields.map(columnName);
  checkTableHeader(columns, tableName);
  const missing = requiredColumns.filter((column) => !columns.includes(column));
  if (missing.length > 0) {
    throw new UnreadableExportError(
      `The CSV's header does not name ${missing.map((column) => `"${column}"`).join(', ')}, ` +
        `which KeyAuth's ${tableName} table has; export that table by itself.`,
    );
  }
  checkRowCount(dataRecords.length);

  const values = dataRecords.map((record) => {
    if (record.fields.length !== columns.length) return new MisalignedCsvRow(record.fields.length);
    const entries = columns.flatMap((column, index) =>
      tableColumns.has(column) ? [[column, record.fields[index]] as const] : [],
    );
    return Object.fromEntries(entries);
  });
  const headerFieldCount = columns.length;
  const rowOf = (value: unknown): unknown => {
    if (value instanceof MisalignedCsvRow) {
      throw new RowProblem(`${value.fieldCount} fields, the header has ${headerFieldCount}`);
    }
    return value;
  };
  const lineOf = (index: number) => dataRecords[index]?.lineNumber ?? index + 2;
  const appColumn = columns.indexOf(APP_COLUMN);
  const application =
    appColumn === -1
      ? null
      : readApplicationSecret(
          dataRecords.map((record) =>
            record.fields.length === columns.length ? record.fields[appColumn] : null,
          ),
          lineOf,
        );
  return {
    ...readRows(
      values,
      {
        identity: (value) => reader.identity(rowOf(value)),
        duplicate: reader.duplicate,
        row: (value, identity, rowNumber) => reader.row(rowOf(value), identity, rowNumber),
      },
      lineOf,
    ),
    application,
  };
}

/** Every KeyAuth table's column holding the application's secret (db_structure.sql). */
const APP_COLUMN = 'app';

function appColumnOf(value: unknown): unknown {
  return isRecord(value) ? value[APP_COLUMN] : null;
}

/**
 * The application's secret, from the `app` column of each row (`values`, in row order): the
 * one 64-hex value they hold, or a problem when they hold two. Other values are ignored, and
 * so is a file without any.
 */
export function readApplicationSecret(
  values: readonly unknown[],
  rowNumberOf: (index: number) => number = (index) => index + 1,
): KeyAuthApplication | null {
  let found: { secret: string; rowNumber: number } | null = null;
  for (const [index, value] of values.entries()) {
    if (typeof value !== 'string') continue;
    const secret = value.trim().toLowerCase();
    if (!KEYAUTH_SECRET_PATTERN.test(secret)) continue;
    if (found === null) {
      found = { secret, rowNumber: rowNumberOf(index) };
    } else if (found.secret !== secret) {
      // Neither secret is quoted: they are the applications' credentials.
      return {
        rowNumber: found.rowNumber,
        ownerId: null,
        name: null,
        secret: null,
        problem:
          `rows ${found.rowNumber} and ${rowNumberOf(index)} hold different application ` +
          'secrets (the file mixes KeyAuth applications), so neither is written',
      };
    }
  }
  if (found === null) return null;
  return {
    rowNumber: found.rowNumber,
    ownerId: null,
    name: null,
    secret: found.secret,
    problem: null,
  };
}

function checkTableHeader(columns: readonly string[], tableName: string): void {
  if (columns.includes(SUBS_ONLY_COLUMN)) {
    throw new UnreadableExportError(
      `The CSV's header names the column "${SUBS_ONLY_COLUMN}" of KeyAuth's subs table, so it is ` +
        `that table or a query joining it, not the ${tableName} table. Export the ${tableName} ` +
        'table by itself.',
    );
  }
  const seen = new Set<string>();
  for (const column of columns) {
    if (column !== '' && seen.has(column)) {
      throw new UnreadableExportError(
        `The CSV's header names the column ${quote(column)} twice; export the ${tableName} ` +
          'table by itself.',
      );
    }
    seen.add(column);
  }
}

// --- rows, problems and duplicates ---

/** A problem that makes one row unreadable; its message is shown to the vendor. */
export class RowProblem extends Error {}

export interface RowReader<Row> {
  /** Reads the identity first, so a duplicate is found even when the rest is broken. */
  identity: (value: unknown) => string;
  duplicate: (identity: string, firstRowNumber: number) => string;
  row: (value: unknown, identity: string, rowNumber: number) => Row;
}

export function readRows<Row>(
  values: readonly unknown[],
  reader: RowReader<Row>,
  rowNumberOf: (index: number) => number = (index) => index + 1,
): { rows: Row[]; unreadable: UnreadableRow[] } {
  const rows: Row[] = [];
  const unreadable: UnreadableRow[] = [];
  const firstRowNumbers = new Map<string, number>();
  values.forEach((value, index) => {
    const rowNumber = rowNumberOf(index);
    try {
      const identity = reader.identity(value);
      const firstRowNumber = firstRowNumbers.get(identity);
      if (firstRowNumber !== undefined) {
        throw new RowProblem(reader.duplicate(identity, firstRowNumber));
      }
      firstRowNumbers.set(identity, rowNumber);
      rows.push(reader.row(value, identity, rowNumber));
    } catch (error) {
      if (!(error instanceof RowProblem)) throw error;
      unreadable.push({ rowNumber, reason: `row ${rowNumber}: ${error.message}` });
    }
  });
  return { rows, unreadable };
}

export function recordOf(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new RowProblem('is not a JSON object');
  return value;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// --- users ---

const userRowReader: RowReader<KeyAuthUserRow> = {
  identity: (value) => requiredText(recordOf(value), 'username'),
  duplicate: (username, first) => `username ${quote(username)} is a duplicate of row ${first}`,
  row: (value, username, rowNumber) => readUserRow(recordOf(value), username, rowNumber),
};

function readUserRow(
  record: Record<string, unknown>,
  username: string,
  rowNumber: number,
): KeyAuthUserRow {
  const banReason = optionalText(record, 'banned');
  return {
    rowNumber,
    username,
    ...readPassword(record),
    hwid: optionalText(record, 'hwid'),
    ...readEmail(record),
    lastIp: optionalText(record, 'ip'),
    createdBy: optionalText(record, 'owner'),
    createdAt: optionalUnixDate(record, 'createdate'),
    lastLoginAt: optionalUnixDate(record, 'lastlogin'),
    isBanned: banReason !== null,
    banReason,
    subscriptions: readEmbeddedSubscriptions(record),
  };
}

/** What a password hash starts with, whether or not we can verify it. */
const HASH_PREFIX = /^\$(?:argon2|2[a-z]\$)/;

/**
 * Only a hash crosses this boundary: a plain password is dropped and merely flagged. A hash we
 * would not verify (a variant we cannot check, or parameters that would cost a login too much:
 * password-hash-bounds.ts) refuses its row, with the reason in the preview.
 */
function readPassword(record: Record<string, unknown>): {
  passwordHash: string | null;
  hadPlainPassword: boolean;
} {
  const password = optionalText(record, 'password');
  if (password === null) return { passwordHash: null, hadPlainPassword: false };
  if (!HASH_PREFIX.test(password)) return { passwordHash: null, hadPlainPassword: true };
  const check = checkPasswordHash(password);
  if (!check.isVerifiable) throw new RowProblem(`password hash ${check.reason}`);
  return { passwordHash: password, hadPlainPassword: false };
}

function readEmail(record: Record<string, unknown>): {
  email: string | null;
  emailSha1: string | null;
} {
  const email = optionalText(record, 'email');
  if (email !== null && /^[0-9a-f]{40}$/i.test(email)) {
    return { email: null, emailSha1: email.toLowerCase() };
  }
  return { email, emailSha1: null };
}

/**
 * Not seen in an export: the shape of the seller API's userdata answer
 * ([{"subscription","expiry","key","level"}]), read in case a later hosted fetchallusers
 * embeds it. The licence key in it is a secret and is not read.
 */
function readEmbeddedSubscriptions(record: Record<string, unknown>): KeyAuthSubscription[] {
  const list = record.subscriptions;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new RowProblem('subscriptions is not a list');
  return list.map((entry, index) => {
    try {
      return readSubscription(recordOf(entry));
    } catch (error) {
      if (error instanceof RowProblem) {
        throw new RowProblem(`subscription ${index + 1}: ${error.message}`);
      }
      throw error;
    }
  });
}

function readSubscription(record: Record<string, unknown>): KeyAuthSubscription {
  const expiry = requiredNumber(record, 'expiry', 'a date');
  const isPaused = expiry >= 0 && expiry < KEYAUTH_FIRST_YEAR_START;
  return {
    name: optionalText(record, 'subscription') ?? 'default',
    level: optionalText(record, 'level'),
    expiresAt: isPaused ? null : unixDate(expiry, 'expiry', record.expiry),
    pausedSecondsLeft: isPaused ? Math.round(expiry) : null,
  };
}

/** The panel file lists subscriptions apart from users, joined by username. */
function attachPanelSubscriptions(
  entries: readonly unknown[],
  users: readonly KeyAuthUserRow[],
  unreadable: UnreadableRow[],
): void {
  const usersByName = new Map(users.map((user) => [user.username, user]));
  entries.forEach((entry, index) => {
    const position = index + 1;
    try {
      const record = recordOf(entry);
      const username = requiredText(record, 'user');
      const user = usersByName.get(username);
      if (!user) {
        throw new RowProblem(`user ${quote(username)} has no readable row in the users list`);
      }
      user.subscriptions.push(readSubscription(record));
    } catch (error) {
      if (!(error instanceof RowProblem)) throw error;
      unreadable.push({
        rowNumber: position,
        reason: `subscription ${position} (in the "subscription" list): ${error.message}`,
      });
    }
  });
}

// --- keys ---

/** Reasons never quote a key: it is a bearer secret (see the guide's security rules). */
const duplicateKey = (_key: string, first: number) => `duplicate of row ${first}`;

const panelKeyRowReader: RowReader<KeyAuthKeyRow> = {
  identity: (value) => readKey(requiredText(recordOf(value), 'key')),
  duplicate: duplicateKey,
  row: (value, key, rowNumber) => {
    const record = recordOf(value);
    const days = optionalNumber(record, 'expiry', 'a number of days');
    return {
      ...emptyKeyRow(key, rowNumber),
      level: optionalText(record, 'level'),
      durationSeconds:
        days === null ? null : durationOf(days * SECONDS_PER_DAY, 'expiry', record.expiry),
    };
  },
};

const sellerApiKeyRowReader: RowReader<KeyAuthKeyRow> = {
  identity: panelKeyRowReader.identity,
  duplicate: duplicateKey,
  row: (value, key, rowNumber) => {
    const record = recordOf(value);
    const seconds = optionalNumber(record, 'expires', 'a number of seconds');
    return {
      rowNumber,
      key,
      level: optionalText(record, 'level'),
      note: optionalText(record, 'note'),
      durationSeconds: seconds === null ? null : durationOf(seconds, 'expires', record.expires),
      status: readKeyStatus(record),
      banReason: optionalText(record, 'banned'),
      usedBy: optionalText(record, 'usedby'),
      createdBy: optionalText(record, 'genby'),
      createdAt: optionalUnixDate(record, 'gendate'),
      usedAt: optionalUnixDate(record, 'usedon'),
    };
  },
};

const keyLineReader: RowReader<KeyAuthKeyRow> = {
  identity: (line) => readKey(cleanLine(line as string)),
  duplicate: duplicateKey,
  row: (_line, key, rowNumber) => emptyKeyRow(key, rowNumber),
};

function parseKeyList(text: string): KeyAuthKeysParse {
  if (text.trimStart().startsWith('<')) {
    throw new UnreadableExportError(
      `The file looks like a web page (HTML), not an export; expected ${KEYS_EXPECTED}.`,
    );
  }
  const lines = text.split(/\r\n|\r|\n/);
  // A line's number is its place in the file, blank lines included, as an editor shows it.
  const keyLines = lines.flatMap((line, index) =>
    line.trim() === '' ? [] : [{ line, lineNumber: index + 1 }],
  );
  checkRowCount(keyLines.length);
  const result = readRows(
    keyLines.map((entry) => entry.line),
    keyLineReader,
    (index) => keyLines[index]?.lineNumber ?? index + 1,
  );
  // Prose such as a PHP error page ("Application not selected.") has no key-shaped line.
  if (result.rows.length === 0) throw notRecognised(KEYS_EXPECTED);
  return { format: 'key-list-text', ...result, application: null };
}

function cleanLine(line: string): string {
  if (!isCleanText(line)) throw new RowProblem('contains a NUL character or broken Unicode');
  return line.trim();
}

function readKey(key: string): string {
  if (/\s/.test(key)) throw new RowProblem('is not a KeyAuth key (it contains spaces)');
  if (key.length > KEYAUTH_KEY_MAX_LENGTH) {
    throw new RowProblem(
      `is not a KeyAuth key (it is longer than ${KEYAUTH_KEY_MAX_LENGTH} characters)`,
    );
  }
  return key;
}

function emptyKeyRow(key: string, rowNumber: number): KeyAuthKeyRow {
  return {
    rowNumber,
    key,
    level: null,
    note: null,
    durationSeconds: null,
    status: null,
    banReason: null,
    usedBy: null,
    createdBy: null,
    createdAt: null,
    usedAt: null,
  };
}

const KEY_STATUSES: Record<string, KeyAuthKeyStatus> = {
  'not used': 'unused',
  used: 'used',
  banned: 'banned',
};

function readKeyStatus(record: Record<string, unknown>): KeyAuthKeyStatus | null {
  const status = optionalText(record, 'status');
  if (status === null) return null;
  const known = KEY_STATUSES[status.toLowerCase()];
  if (!known) {
    throw new RowProblem(`status ${quote(status)} is not one of Not Used, Used, Banned`);
  }
  return known;
}

function durationOf(seconds: number, field: string, shown: unknown): number {
  if (seconds < 0) throw new RowProblem(`${field} ${quote(shown)} is not a duration`);
  return Math.round(seconds);
}

// --- fields ---

export function requiredText(record: Record<string, unknown>, field: string): string {
  const text = optionalText(record, field);
  if (text === null) throw new RowProblem(`${field} is missing`);
  return text;
}

/** Trimmed; absent, null and "" (KeyAuth's empty column) all read as null. */
export function optionalText(record: Record<string, unknown>, field: string): string | null {
  const value = record[field];
  if (value === undefined || value === null) return null;
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else throw new RowProblem(`${field} is not text`);
  if (!isCleanText(text)) {
    throw new RowProblem(`${field} contains a NUL character or broken Unicode`);
  }
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export function optionalNumber(
  record: Record<string, unknown>,
  field: string,
  what: string,
): number | null {
  const value = record[field];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return Number(value);
  throw new RowProblem(`${field} ${quote(value)} is not ${what}`);
}

function requiredNumber(record: Record<string, unknown>, field: string, what: string): number {
  const number = optionalNumber(record, field, what);
  if (number === null) throw new RowProblem(`${field} is missing`);
  return number;
}

/** KeyAuth keeps every time as Unix seconds (PHP's time()). */
function optionalUnixDate(record: Record<string, unknown>, field: string): Date | null {
  const seconds = optionalNumber(record, field, 'a date');
  return seconds === null ? null : unixDate(seconds, field, record[field]);
}

function unixDate(seconds: number, field: string, shown: unknown): Date {
  if (seconds < 0 || seconds > MAX_UNIX_SECONDS) {
    throw new RowProblem(`${field} ${quote(shown)} is not a date`);
  }
  return new Date(Math.round(seconds * 1000));
}

/** A value as a vendor can read it in a reason: quoted, printable, short. */
export function quote(value: unknown, maxLength = 40): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const printable = text.toWellFormed().replace(/\p{Cc}/gu, '?');
  const short = printable.length > maxLength ? `${printable.slice(0, maxLength - 1)}…` : printable;
  return `'${short}'`;
}
