/*
 * Reads what else a KeyAuth application holds besides users and keys, so that moving a program
 * to Latchkey is "import, turn on compatibility, change the URL": its subscriptions, variables,
 * users' variables, blacklist, files and its own KeyAuth settings. Pure, like keyauth-export.ts
 * (whose readers and limits these share): bytes in, rows and problems out.
 *
 * What the files are. Sources: KeyAuth/KeyAuth-Source-Code at 704ec0b (db_structure.sql, the
 * panel's app/download-types.php), and its seller API as it was before f3dc6b9 removed it
 * (api/seller/index.php at f3dc6b9^), with keyauth-docs' example answers (seller/*.md).
 *
 * The panel exports none of these (download-types.php knows users, licenses, logs and
 * auditLog), so each is read from the seller API's JSON answer, saved as a file, or from a CSV
 * of its table (a self-hosted KeyAuth's database, read as keyauth-export.ts reads the users and
 * keys tables: a header row naming the columns, the `app` column giving the application's
 * secret and never a row):
 * - Subscriptions: fetchallsubs -> {"success":true,"message":…,"subs":[{"name","level"}]}
 *   (index.php:252-273, keyauth-docs seller/subscriptions.md); table `subscriptions` (id, name,
 *   level varchar(12), app). A key's level picks every subscription of that level when it is
 *   redeemed, and a user's subscription is held by name, so a level is one plan here and each
 *   subscription name leads to its level's plan (start-import.ts).
 * - Variables: fetchallvars -> {"vars":[{"varid","msg"}]} (index.php:318-339, seller/
 *   variables.md): without `authed`, which that answer does not select; table `vars` (id, varid
 *   varchar(49), msg varchar(1000), app, authed int default 1). `authed` 1 means only a
 *   validated session reads it (api/1.2/index.php, case 'var'); where the file does not say,
 *   KeyAuth's default, 1, is taken.
 * - Users' variables: fetchalluservars -> {"vars":[{"name","data","user"}]} (index.php:274-295,
 *   seller/users.md); the same "vars" list as fetchallvars, told apart by its fields; table
 *   `uservars` (id, name varchar(99), data varchar(500), user, app, readOnly int default 0).
 * - Blacklist: fetchallblacks -> {"blacklists":[{"hwid","ip","type"}]} (index.php:230-251;
 *   keyauth-docs seller/blacklists.md shows the list under "subs", which is read too); table
 *   `bans` (id, hwid varchar(500), ip varchar(49), type varchar(5): "hwid" or "ip", app). A
 *   banned user's own ban (`users.banned`) comes with the users (write-imported-users.ts).
 * - Files: fetchallfiles -> {"files":[{"id","url"}]} (index.php:296-317, seller/files.md); table
 *   `files` (pk, name varchar(49), id varchar(49), url varchar(2048), size, uploaddate, app,
 *   authed int default 1). KeyAuth keeps a URL, not the bytes: its upload fetched the URL
 *   (includes/misc/upload.php) and serves it again on each download, naming the file after the
 *   URL's last segment (basename), which is what a file without a name is called here.
 * - The application: table `apps` (db_structure.sql:51-131) holds `ownerid`, `name` and
 *   `secret`, which KeyAuth's clients identify themselves and check answers with. No export
 *   and no seller API call answers them; only a self-hosted KeyAuth's database has the row.
 *   Its other columns hold credentials of their own (sellerkey, the shops' secrets, webhook
 *   URLs) and are never read.
 *
 * Values are taken as found where KeyAuth used them verbatim (a variable's value is not
 * trimmed); names and identifiers are trimmed, as keyauth-export.ts does. Latchkey's own limits
 * apply to each row (a variable's name and size, a blacklist value's length), and a row
 * outside them is unreadable with its reason, never cut short.
 */
import { isIP } from 'node:net';
import {
  appFileLimits,
  blacklistLimits,
  isCleanText,
  KEYAUTH_OWNER_ID_PATTERN,
  KEYAUTH_SECRET_PATTERN,
  keyauthLimits,
  planLimits,
  utf8ByteLength,
  VARIABLE_NAME_PATTERN,
  variableLimits,
} from '@latchkey/contracts';
import { z } from 'zod';
import { normalizeIpAddress } from '../../lib/client-ip.ts';
import {
  checkRowCount,
  decodeText,
  isRecord,
  type KeyAuthApplication,
  looksLikeJson,
  notRecognised,
  optionalText,
  parseJsonDocument,
  quote,
  readRows,
  readTableCsv,
  recordOf,
  refuseKeyAuthErrorAnswer,
  requiredText,
  RowProblem,
  type RowReader,
  tableCsvDelimiter,
  UnreadableExportError,
  type UnreadableRow,
} from './keyauth-export.ts';

/**
 * A level is a plan and a start maps at most 1000 levels (startImportRequestSchema), so a
 * subscriptions file is refused past that many rows, before it could make a thousand plans.
 */
export const KEYAUTH_SUBSCRIPTIONS_MAX_ROWS = 1_000;

const rowNumber = z.number().int().positive();

export const keyAuthSubscriptionRowSchema = z.object({
  rowNumber,
  name: z.string().min(1).max(planLimits.name),
  level: z.string().min(1),
});
export type KeyAuthSubscriptionRow = z.infer<typeof keyAuthSubscriptionRowSchema>;

export const keyAuthVariableRowSchema = z.object({
  rowNumber,
  name: z.string().regex(VARIABLE_NAME_PATTERN),
  value: z.string(),
  requiresSession: z.boolean(),
});
export type KeyAuthVariableRow = z.infer<typeof keyAuthVariableRowSchema>;

export const keyAuthUserVariableRowSchema = z.object({
  rowNumber,
  username: z.string().min(1),
  name: z.string().regex(VARIABLE_NAME_PATTERN),
  value: z.string(),
  isReadOnly: z.boolean(),
});
export type KeyAuthUserVariableRow = z.infer<typeof keyAuthUserVariableRowSchema>;

export const keyAuthBanRowSchema = z.object({
  rowNumber,
  type: z.enum(['hwid', 'ip']),
  value: z.string().min(1).max(blacklistLimits.value),
});
export type KeyAuthBanRow = z.infer<typeof keyAuthBanRowSchema>;

export const keyAuthFileRowSchema = z.object({
  rowNumber,
  fileId: z.string().min(1),
  /** KeyAuth's name, or its URL's last segment; the URL itself is not kept (see below). */
  name: z.string().min(1),
  requiresSession: z.boolean(),
});
export type KeyAuthFileRow = z.infer<typeof keyAuthFileRowSchema>;

export type KeyAuthTableFormat = 'seller-api-json' | 'table-csv';

export interface KeyAuthTableParse<Row> {
  format: KeyAuthTableFormat;
  rows: Row[];
  unreadable: UnreadableRow[];
  application: KeyAuthApplication | null;
}

/** How one kind's files are recognised and read. */
interface TableExport<Row> {
  /** What the file should have been, for the messages. */
  expected: string;
  /** The rows of the seller API's answer, or null when the document is not that answer. */
  answerRows: (document: Record<string, unknown>) => unknown[] | null;
  /** A column its CSV header names, by which the CSV is recognised. */
  csvKeyColumn: string;
  /** The columns read, without `app` (the secret). */
  csvColumns: ReadonlySet<string>;
  /** Columns a CSV of this table must name. */
  csvRequired: readonly string[];
  tableName: string;
  reader: RowReader<Row>;
  maxRows?: number;
}

function parseTableExport<Row>(
  bytes: Uint8Array | string,
  table: TableExport<Row>,
): KeyAuthTableParse<Row> {
  const text = decodeText(bytes);
  let parsed: KeyAuthTableParse<Row>;
  if (!looksLikeJson(text)) {
    const delimiter = tableCsvDelimiter(text, table.csvKeyColumn);
    if (!delimiter) throw notRecognised(table.expected);
    parsed = {
      format: 'table-csv',
      ...readTableCsv(text, delimiter, table.csvColumns, table.tableName, table.reader, {
        requiredColumns: table.csvRequired,
      }),
    };
  } else {
    const document = parseJsonDocument(text, table.expected);
    if (!isRecord(document)) throw notRecognised(table.expected);
    refuseKeyAuthErrorAnswer(document);
    const values = table.answerRows(document);
    if (values === null) throw notRecognised(table.expected);
    checkRowCount(values.length);
    // These answers select their columns (index.php), and `app` is not one of them.
    parsed = { format: 'seller-api-json', ...readRows(values, table.reader), application: null };
  }
  const maxRows = table.maxRows;
  if (maxRows !== undefined && parsed.rows.length + parsed.unreadable.length > maxRows) {
    throw new UnreadableExportError(
      `The file has ${parsed.rows.length + parsed.unreadable.length} rows; a KeyAuth ` +
        `${table.tableName} export has at most ${maxRows}.`,
    );
  }
  return parsed;
}

/**
 * The list under `field` when its first row has one of `fields`: two of the seller API's
 * answers use the same name ("vars"), and the docs show the blacklist under "subs".
 */
function listWhoseRowsHave(
  document: Record<string, unknown>,
  field: string,
  fields: readonly string[],
): unknown[] | null {
  const list = document[field];
  if (!Array.isArray(list)) return null;
  const [first] = list;
  if (first === undefined) return list;
  return isRecord(first) && fields.some((name) => name in first) ? list : null;
}

/** KeyAuth's int flags: 0/1 as a number or a string (PHP's MySQL drivers give either). */
function optionalFlag(record: Record<string, unknown>, field: string): boolean | null {
  const value = record[field];
  if (value === undefined || value === null || value === '') return null;
  if (value === true || value === 1 || value === '1') return true;
  if (value === false || value === 0 || value === '0') return false;
  throw new RowProblem(`${field} ${quote(value)} is not 0 or 1`);
}

/** A value as KeyAuth stored it: not trimmed; a number as its text. */
function verbatimText(record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (value === undefined || value === null) throw new RowProblem(`${field} is missing`);
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else throw new RowProblem(`${field} is not text`);
  if (!isCleanText(text)) {
    throw new RowProblem(`${field} contains a NUL character or broken Unicode`);
  }
  return text;
}

function variableName(record: Record<string, unknown>, field: string): string {
  const name = requiredText(record, field);
  if (!VARIABLE_NAME_PATTERN.test(name)) {
    throw new RowProblem(
      `${field} ${quote(name)} cannot be a Latchkey variable name (1 to ` +
        `${variableLimits.name} letters, digits, _, . or -)`,
    );
  }
  return name;
}

function variableValue(record: Record<string, unknown>, field: string, maxBytes: number): string {
  const value = verbatimText(record, field);
  if (value.length > maxBytes || utf8ByteLength(value) > maxBytes) {
    throw new RowProblem(`${field} is longer than ${maxBytes / 1024} KB`);
  }
  return value;
}

// --- subscriptions ---

const SUBSCRIPTIONS_EXPECTED =
  'a KeyAuth subscriptions export: the seller API\'s fetchallsubs answer ({"success": true, ' +
  '"subs": [{"name": ..., "level": ...}]}) or a CSV export of the subscriptions table ' +
  '(a header row naming its columns, with "name" and "level")';

const subscriptionRowReader: RowReader<KeyAuthSubscriptionRow> = {
  identity: (value) => requiredText(recordOf(value), 'name'),
  duplicate: (name, first) => `subscription ${quote(name)} is a duplicate of row ${first}`,
  row: (value, name, rowNumber) => {
    if (name.length > planLimits.name) {
      throw new RowProblem(`name is longer than a plan name's ${planLimits.name} characters`);
    }
    return { rowNumber, name, level: requiredText(recordOf(value), 'level') };
  },
};

export function parseKeyAuthSubscriptions(
  bytes: Uint8Array | string,
): KeyAuthTableParse<KeyAuthSubscriptionRow> {
  return parseTableExport(bytes, {
    expected: SUBSCRIPTIONS_EXPECTED,
    answerRows: (document) => listWhoseRowsHave(document, 'subs', ['name', 'level']),
    // `keys` has a level too, but no name: the header must name both.
    csvKeyColumn: 'level',
    csvColumns: new Set(['id', 'name', 'level']),
    csvRequired: ['name', 'level'],
    tableName: 'subscriptions',
    reader: subscriptionRowReader,
    maxRows: KEYAUTH_SUBSCRIPTIONS_MAX_ROWS,
  });
}

// --- variables ---

const VARIABLES_EXPECTED =
  'a KeyAuth variables export: the seller API\'s fetchallvars answer ({"success": true, ' +
  '"vars": [{"varid": ..., "msg": ...}]}) or a CSV export of the vars table ' +
  '(a header row naming its columns, with "varid")';

const variableRowReader: RowReader<KeyAuthVariableRow> = {
  identity: (value) => variableName(recordOf(value), 'varid'),
  duplicate: (name, first) => `variable ${quote(name)} is a duplicate of row ${first}`,
  row: (value, name, rowNumber) => {
    const record = recordOf(value);
    return {
      rowNumber,
      name,
      value: variableValue(record, 'msg', variableLimits.applicationValueBytes),
      requiresSession: optionalFlag(record, 'authed') ?? true,
    };
  },
};

export function parseKeyAuthVariables(
  bytes: Uint8Array | string,
): KeyAuthTableParse<KeyAuthVariableRow> {
  return parseTableExport(bytes, {
    expected: VARIABLES_EXPECTED,
    answerRows: (document) => {
      const isUserVariables =
        listWhoseRowsHave(document, 'vars', ['user']) !== null &&
        listWhoseRowsHave(document, 'vars', ['varid']) === null;
      if (isUserVariables) {
        throw new UnreadableExportError(
          "The file is the seller API's fetchalluservars answer (users' variables); upload it " +
            'as user variables.',
        );
      }
      return listWhoseRowsHave(document, 'vars', ['varid', 'msg']);
    },
    csvKeyColumn: 'varid',
    csvColumns: new Set(['id', 'varid', 'msg', 'authed']),
    csvRequired: ['varid', 'msg'],
    tableName: 'vars',
    reader: variableRowReader,
  });
}

// --- users' variables ---

const USER_VARIABLES_EXPECTED =
  'a KeyAuth user variables export: the seller API\'s fetchalluservars answer ({"success": ' +
  'true, "vars": [{"name": ..., "data": ..., "user": ...}]}) or a CSV export of the uservars ' +
  'table (a header row naming its columns, with "data")';

/** What makes one user's variable a duplicate: the pair, as the database's primary key. */
const userVariableIdentity = (username: string, name: string) => `${username}\u0000${name}`;

/** Reads rows, refusing a user's variables past what one end user may hold. */
function userVariableRowReader(): RowReader<KeyAuthUserVariableRow> {
  const heldByUser = new Map<string, number>();
  return {
    identity: (value) => {
      const record = recordOf(value);
      return userVariableIdentity(requiredText(record, 'user'), variableName(record, 'name'));
    },
    duplicate: (identity, first) => {
      const [username, name] = identity.split('\u0000');
      return `variable ${quote(name)} of user ${quote(username)} is a duplicate of row ${first}`;
    },
    row: (value, identity, rowNumber) => {
      const record = recordOf(value);
      const [username = '', name = ''] = identity.split('\u0000');
      const row = {
        rowNumber,
        username,
        name,
        value: variableValue(record, 'data', variableLimits.userValueBytes),
        isReadOnly: optionalFlag(record, 'readonly') ?? optionalFlag(record, 'readOnly') ?? false,
      };
      const held = (heldByUser.get(username) ?? 0) + 1;
      if (held > variableLimits.userVariablesPerUser) {
        throw new RowProblem(
          `user ${quote(username)} has more than the ${variableLimits.userVariablesPerUser} ` +
            'variables an end user may hold',
        );
      }
      heldByUser.set(username, held);
      return row;
    },
  };
}

export function parseKeyAuthUserVariables(
  bytes: Uint8Array | string,
): KeyAuthTableParse<KeyAuthUserVariableRow> {
  return parseTableExport(bytes, {
    expected: USER_VARIABLES_EXPECTED,
    answerRows: (document) => {
      if (listWhoseRowsHave(document, 'vars', ['varid'])) {
        throw new UnreadableExportError(
          "The file is the seller API's fetchallvars answer (the application's variables); " +
            'upload it as variables.',
        );
      }
      return listWhoseRowsHave(document, 'vars', ['name', 'data', 'user']);
    },
    csvKeyColumn: 'data',
    // The CSV's header is lower-cased before it is compared (keyauth-export.ts).
    csvColumns: new Set(['id', 'name', 'data', 'user', 'readonly']),
    csvRequired: ['name', 'data', 'user'],
    tableName: 'uservars',
    reader: userVariableRowReader(),
  });
}

// --- blacklist ---

const BLACKLIST_EXPECTED =
  'a KeyAuth blacklist export: the seller API\'s fetchallblacks answer ({"success": true, ' +
  '"blacklists": [{"hwid": ..., "ip": ..., "type": ...}]}) or a CSV export of the bans table ' +
  '(a header row naming its columns, with "type")';

const BAN_TYPES: Record<string, KeyAuthBanRow['type']> = { hwid: 'hwid', ip: 'ip' };

/** The ban's type and value; an IP as the client API compares it (lib/client-ip.ts). */
function readBan(record: Record<string, unknown>): Pick<KeyAuthBanRow, 'type' | 'value'> {
  const hwid = optionalText(record, 'hwid');
  const ip = optionalText(record, 'ip');
  const typeText = optionalText(record, 'type');
  let type: KeyAuthBanRow['type'] | undefined;
  if (typeText !== null) {
    type = BAN_TYPES[typeText.toLowerCase()];
    if (!type) throw new RowProblem(`type ${quote(typeText)} is not hwid or ip`);
  } else if ((hwid === null) !== (ip === null)) {
    type = hwid === null ? 'ip' : 'hwid';
  } else {
    throw new RowProblem('has no type and not exactly one of hwid and ip');
  }
  const value = type === 'hwid' ? hwid : ip;
  if (value === null) throw new RowProblem(`is a ${type} ban without a ${type}`);
  if (value.length > blacklistLimits.value) {
    throw new RowProblem(
      `${type} is longer than a blacklist entry's ${blacklistLimits.value} characters`,
    );
  }
  if (type === 'ip') {
    if (isIP(value) === 0) throw new RowProblem(`ip ${quote(value)} is not an IP address`);
    return { type, value: normalizeIpAddress(value) };
  }
  return { type, value };
}

const banRowReader: RowReader<KeyAuthBanRow> = {
  // HWIDs match exactly, IPs as normalised (find-blacklist-match.ts).
  identity: (value) => {
    const ban = readBan(recordOf(value));
    return `${ban.type}:${ban.value}`;
  },
  duplicate: (identity, first) => `${identity.replace(':', ' ')} is a duplicate of row ${first}`,
  row: (value, _identity, rowNumber) => ({ rowNumber, ...readBan(recordOf(value)) }),
};

export function parseKeyAuthBans(bytes: Uint8Array | string): KeyAuthTableParse<KeyAuthBanRow> {
  return parseTableExport(bytes, {
    expected: BLACKLIST_EXPECTED,
    answerRows: (document) =>
      listWhoseRowsHave(document, 'blacklists', ['hwid', 'ip', 'type']) ??
      listWhoseRowsHave(document, 'subs', ['hwid', 'ip', 'type']),
    // `users` has hwid and ip too: only `bans` has a type, and the header must name it.
    csvKeyColumn: 'type',
    csvColumns: new Set(['id', 'hwid', 'ip', 'type']),
    csvRequired: ['type'],
    tableName: 'bans',
    reader: banRowReader,
  });
}

// --- files ---

const FILES_EXPECTED =
  'a KeyAuth files export: the seller API\'s fetchallfiles answer ({"success": true, ' +
  '"files": [{"id": ..., "url": ...}]}) or a CSV export of the files table ' +
  '(a header row naming its columns, with "url")';

/** `files.url` is varchar(2048). */
const FILE_URL_MAX_LENGTH = 2048;

/**
 * The URL, only to name a file that has no name. It is not kept: it may be the unguessable
 * link that kept the vendor's download private, and nothing here fetches it
 * (find-import-conflicts.ts says why).
 */
function readFileUrl(record: Record<string, unknown>): string | null {
  const text = optionalText(record, 'url');
  if (text === null || text.length > FILE_URL_MAX_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
}

/** KeyAuth names an uploaded file after its URL's last segment (PHP's basename). */
function nameFromUrl(url: string | null): string | null {
  if (url === null) return null;
  const segment = new URL(url).pathname.split('/').filter(Boolean).at(-1);
  if (!segment) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const fileRowReader: RowReader<KeyAuthFileRow> = {
  identity: (value) => requiredText(recordOf(value), 'id'),
  duplicate: (id, first) => `file id ${quote(id)} is a duplicate of row ${first}`,
  row: (value, fileId, rowNumber) => {
    const record = recordOf(value);
    const name =
      optionalText(record, 'name') ?? nameFromUrl(readFileUrl(record)) ?? `keyauth-file-${fileId}`;
    return {
      rowNumber,
      fileId,
      name: name.slice(0, appFileLimits.name),
      requiresSession: optionalFlag(record, 'authed') ?? true,
    };
  },
};

export function parseKeyAuthFiles(bytes: Uint8Array | string): KeyAuthTableParse<KeyAuthFileRow> {
  return parseTableExport(bytes, {
    expected: FILES_EXPECTED,
    answerRows: (document) => listWhoseRowsHave(document, 'files', ['id', 'url']),
    csvKeyColumn: 'url',
    csvColumns: new Set(['pk', 'name', 'id', 'url', 'size', 'uploaddate', 'authed']),
    csvRequired: ['id', 'url'],
    tableName: 'files',
    reader: fileRowReader,
  });
}

// --- the application ---

const APPLICATION_EXPECTED =
  'a CSV export of KeyAuth\'s apps table (a header row naming its columns, with "ownerid", ' +
  '"name" and "secret"), holding the row of one application';

/** The identity is read as a row; `secret` is the column's name in `apps`, not `app`. */
const applicationRowReader: RowReader<KeyAuthApplication> = {
  identity: (value) => requiredText(recordOf(value), 'secret').toLowerCase(),
  // Two rows with one secret: the secret is a credential and is never quoted.
  duplicate: (_secret, first) => `the same application as row ${first}`,
  row: (value, secret, rowNumber) => {
    const record = recordOf(value);
    if (!KEYAUTH_SECRET_PATTERN.test(secret)) throw new RowProblem('secret is not 64 hex');
    const ownerId = requiredText(record, 'ownerid');
    if (!KEYAUTH_OWNER_ID_PATTERN.test(ownerId)) {
      throw new RowProblem(`ownerid ${quote(ownerId)} is not 10 letters or digits`);
    }
    const name = requiredText(record, 'name');
    if (name.length > keyauthLimits.name) {
      throw new RowProblem(`name is longer than ${keyauthLimits.name} characters`);
    }
    return { rowNumber, ownerId, name, secret, problem: null };
  },
};

export interface KeyAuthApplicationParse {
  format: 'table-csv';
  application: KeyAuthApplication;
  unreadable: UnreadableRow[];
}

/**
 * The application's row of KeyAuth's `apps` table. A self-hosted KeyAuth's table holds every
 * application of the instance: the file must hold exactly one readable row, so the owner says
 * which by exporting it, and no secret of another application is kept.
 */
export function parseKeyAuthApplication(bytes: Uint8Array | string): KeyAuthApplicationParse {
  const text = decodeText(bytes);
  const delimiter = looksLikeJson(text) ? null : tableCsvDelimiter(text, 'ownerid');
  if (!delimiter) throw notRecognised(APPLICATION_EXPECTED);
  const parsed = readTableCsv(
    text,
    delimiter,
    new Set(['ownerid', 'name', 'secret']),
    'apps',
    applicationRowReader,
    { requiredColumns: ['ownerid', 'name', 'secret'] },
  );
  const [application, ...others] = parsed.rows;
  if (!application) {
    const reason = parsed.unreadable[0]?.reason;
    throw new UnreadableExportError(
      `The file has no readable application${reason ? ` (${reason})` : ''}; expected ` +
        `${APPLICATION_EXPECTED}.`,
    );
  }
  if (others.length > 0) {
    throw new UnreadableExportError(
      `The file holds ${parsed.rows.length} applications (rows ${application.rowNumber}, ` +
        `${others.map((row) => row.rowNumber).join(', ')}); export only the row of the ` +
        'application to import.',
    );
  }
  return { format: 'table-csv', application, unreadable: parsed.unreadable };
}
