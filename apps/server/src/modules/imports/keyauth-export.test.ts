import { describe, expect, it } from 'vitest';
import {
  KEYAUTH_SUBSCRIPTIONS_MAX_ROWS,
  keyAuthBanRowSchema,
  keyAuthFileRowSchema,
  keyAuthSubscriptionRowSchema,
  keyAuthUserVariableRowSchema,
  keyAuthVariableRowSchema,
  parseKeyAuthApplication,
  parseKeyAuthBans,
  parseKeyAuthFiles,
  parseKeyAuthSubscriptions,
  parseKeyAuthUserVariables,
  parseKeyAuthVariables,
} from './keyauth-application-export.ts';
import {
  KEYAUTH_EXPORT_MAX_ROWS,
  keyAuthKeyRowSchema,
  type KeyAuthKeysParse,
  type KeyAuthUsersParse,
  keyAuthUserRowSchema,
  parseKeyAuthKeys,
  parseKeyAuthUsers,
  UnreadableExportError,
  unreadableRowSchema,
} from './keyauth-export.ts';

// Shaped like KeyAuth's own output: PHP's json_encode on one line, "/" escaped as "\/".
const BCRYPT_A = '$2y$10$NrWehkSfzc/1ZgCj0fnAfWeAdpJZqnLvlwTkgfy90M54SKDvDiK9P';
const BCRYPT_B = '$2y$10$3IhnZtPr8Z/hMPQ94gjG6gfL3IVQa5Rtm9fzIoDWW9it3XHp1HZRU';
const EMAIL_SHA1 = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3';
/** An application's secret (apps.secret: sha256 hex), as every table's `app` column holds it. */
const APP_SECRET = 'db40d586f4b189e04e5c18c3c94b7e72221be3f6551995adc05236948d1762bc';

/** app/download-types.php, case 'users': the panel's KeyAuthUsers.json. */
const PANEL_USERS = String.raw`{"users":[{"username":"alice","email":"A94A8FE5CCB19BA61C4C0873D391E987982FBBD3","password":"$2y$10$NrWehkSfzc\/1ZgCj0fnAfWeAdpJZqnLvlwTkgfy90M54SKDvDiK9P","hwid":"S-1-5-21-213299988-1053324923-381067229-1001","banned":null,"ip":"203.0.113.7"},{"username":"bob","email":null,"password":"hunter2","hwid":null,"banned":"Chargeback","ip":null},{"username":"carol","email":null,"password":null,"hwid":null,"banned":null,"ip":null}],"subscription":[{"user":"alice","subscription":"default","expiry":"1767225600"},{"user":"bob","subscription":"default","expiry":"1700000000"},{"user":"carol","subscription":"default","expiry":"864000"},{"user":"mallory","subscription":"default","expiry":"1767225600"}]}`;

/** The seller API's fetchallusers answer: every column of `users`, as strings. */
const SELLER_API_USERS = JSON.stringify({
  success: true,
  message: 'Successfully Retrieved Users',
  users: [
    {
      id: '11',
      username: 'dave',
      email: null,
      password: BCRYPT_B,
      hwid: '',
      app: 'db40d586f4b189e04e5c18c3c94b7e72221be3f6551995adc05236948d1762bc',
      owner: 'SellerAPI',
      createdate: '1621361205',
      lastlogin: 1700000000,
      banned: null,
      ip: '198.51.100.4',
      cooldown: null,
    },
    {
      id: '12',
      username: 'erin',
      email: null,
      password: null,
      hwid: null,
      app: 'db40d586f4b189e04e5c18c3c94b7e72221be3f6551995adc05236948d1762bc',
      owner: 'reseller1',
      createdate: 'abc',
      lastlogin: null,
      banned: null,
      ip: null,
      cooldown: null,
    },
  ],
});

/** app/download-types.php, case 'licenses': "expiry" is `expires / 86400`, so days. */
const PANEL_KEYS = JSON.stringify([
  { key: 'AVZKQ7-TXPIPH-3L6GZS', level: '1', expiry: 30 },
  { key: 'CDOH16-UW234U-LKPCO0', level: '2', expiry: 90.99537037037037 },
  { key: 'F7U7PX-QTXFC2-F419BX', level: '1', expiry: 'soon' },
]);

/** The seller API's fetchallkeys answer: every column of `keys`. */
const SELLER_API_KEYS = JSON.stringify({
  success: true,
  message: 'Successfully Retrieved Licenses',
  keys: [
    {
      id: 1,
      key: 'ZJ5C50-X3RHHF-06QTO8',
      note: '',
      expires: '2592000',
      status: 'Not Used',
      level: '1',
      genby: 'SellerAPI',
      gendate: '1621361205',
      usedon: null,
      usedby: null,
      app: 'secret-of-the-app',
      banned: null,
    },
    {
      id: 2,
      key: 'ZED7IY-1GFBCW-SJDH5T',
      note: 'for Discord giveaway',
      expires: '86400',
      status: 'Used',
      level: '2',
      genby: 'reseller1',
      gendate: '1621361213',
      usedon: 1621400000,
      usedby: 'alice',
      app: 'secret-of-the-app',
      banned: null,
    },
    {
      id: 3,
      key: 'Q1W2E3-R4T5Y6-U7I8O9',
      note: null,
      expires: '604800',
      status: 'Banned',
      level: '1',
      genby: 'SellerAPI',
      gendate: '1621361300',
      usedon: 1621400100,
      usedby: 'bob',
      app: 'secret-of-the-app',
      banned: 'This key has been banned as the client was blacklisted.',
    },
    {
      id: 4,
      key: 'PAUSED-KEY-000001',
      note: null,
      expires: '86400',
      status: 'Paused',
      level: '1',
      genby: 'SellerAPI',
      gendate: '1621361300',
      usedon: null,
      usedby: null,
      app: 'secret-of-the-app',
      banned: null,
    },
  ],
});

const utf8 = (text: string) => new TextEncoder().encode(text);

function expectUnreadableFile(parse: () => unknown, message: RegExp) {
  let thrown: unknown;
  try {
    parse();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(UnreadableExportError);
  expect((thrown as Error).message).toMatch(message);
}

describe('parseKeyAuthUsers: the panel file (KeyAuthUsers.json)', () => {
  const result = parseKeyAuthUsers(utf8(PANEL_USERS));

  it('is detected by its "subscription" list', () => {
    expect(result.format).toBe('panel-json');
    expect(result.rows.map((row) => row.username)).toEqual(['alice', 'bob', 'carol']);
  });

  it('keeps a bcrypt hash as found, with PHP\'s "\\/" unescaped', () => {
    expect(result.rows[0]?.passwordHash).toBe(BCRYPT_A);
    expect(result.rows[0]?.hadPlainPassword).toBe(false);
  });

  it('drops a plain password and flags the row', () => {
    const bob = result.rows[1];
    expect(bob?.passwordHash).toBeNull();
    expect(bob?.hadPlainPassword).toBe(true);
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });

  it('keeps no password and no flag for a user KeyAuth made without one', () => {
    expect(result.rows[2]).toMatchObject({ passwordHash: null, hadPlainPassword: false });
  });

  it("reads KeyAuth's SHA-1 email, the ban reason and the other columns", () => {
    expect(result.rows[0]).toMatchObject({
      email: null,
      emailSha1: EMAIL_SHA1,
      hwid: 'S-1-5-21-213299988-1053324923-381067229-1001',
      lastIp: '203.0.113.7',
      isBanned: false,
      banReason: null,
      createdAt: null,
      lastLoginAt: null,
    });
    expect(result.rows[1]).toMatchObject({ isBanned: true, banReason: 'Chargeback' });
  });

  it('joins subscriptions to users and converts Unix seconds to dates', () => {
    expect(result.rows[0]?.subscriptions).toEqual([
      {
        name: 'default',
        level: null,
        expiresAt: new Date('2026-01-01T00:00:00Z'),
        pausedSecondsLeft: null,
      },
    ]);
    expect(result.rows[1]?.subscriptions[0]?.expiresAt).toEqual(new Date(1_700_000_000_000));
  });

  it("reads a paused subscription's expiry as the seconds it has left", () => {
    expect(result.rows[2]?.subscriptions).toEqual([
      { name: 'default', level: null, expiresAt: null, pausedSecondsLeft: 864_000 },
    ]);
  });

  it('reports a subscription of a user the file does not list', () => {
    expect(result.unreadable).toEqual([
      {
        rowNumber: 4,
        reason:
          'subscription 4 (in the "subscription" list): user \'mallory\' has no readable row in the users list',
      },
    ]);
  });

  it('answers rows that match the exported schemas', () => {
    expect(() => keyAuthUserRowSchema.array().parse(result.rows)).not.toThrow();
    expect(() => unreadableRowSchema.array().parse(result.unreadable)).not.toThrow();
  });

  it('refuses a row whose hash could not be verified here or would cost a login too much', () => {
    const salt = 'c2FsdHNhbHRzYWx0c2FsdA';
    const file = JSON.stringify({
      users: [
        { username: 'ok', password: BCRYPT_A },
        {
          username: 'huge',
          password: `$argon2id$v=19$m=4294967295,t=1,p=1$${salt}$${'A'.repeat(43)}`,
        },
        { username: 'slow', password: BCRYPT_A.replace('$10$', '$31$') },
        { username: 'buggy', password: BCRYPT_A.replace('$2y$', '$2x$') },
        { username: 'php', password: `$argon2id$v=19$m=65536,t=4,p=1$${salt}$${'A'.repeat(43)}` },
      ],
    });
    const { rows, unreadable } = parseKeyAuthUsers(file);
    expect(rows.map((row) => row.username)).toEqual(['ok', 'php']);
    expect(unreadable).toEqual([
      {
        rowNumber: 2,
        reason: 'row 2: password hash has argon2 memory 4294967295 KiB, outside 8 to 77824',
      },
      { rowNumber: 3, reason: 'row 3: password hash has bcrypt cost 31, outside 4 to 12' },
      {
        rowNumber: 4,
        reason:
          'row 4: password hash is a $2x$ bcrypt hash (the variant of an old bug), which cannot be verified here',
      },
    ]);
  });

  it('reports a subscription whose expiry is not a date', () => {
    const file = JSON.stringify({
      users: [{ username: 'alice', password: BCRYPT_A }],
      subscription: [{ user: 'alice', subscription: 'default', expiry: 'abc' }],
    });
    const { rows, unreadable } = parseKeyAuthUsers(file);
    expect(rows[0]?.subscriptions).toEqual([]);
    expect(unreadable).toEqual([
      {
        rowNumber: 1,
        reason: 'subscription 1 (in the "subscription" list): expiry \'abc\' is not a date',
      },
    ]);
  });
});

describe("parseKeyAuthUsers: the seller API's fetchallusers answer", () => {
  const result = parseKeyAuthUsers(SELLER_API_USERS);

  it('is detected without a "subscription" list and reads the dates', () => {
    expect(result.format).toBe('seller-api-json');
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]).toMatchObject({
      rowNumber: 1,
      username: 'dave',
      passwordHash: BCRYPT_B,
      hwid: null,
      createdBy: 'SellerAPI',
      createdAt: new Date('2021-05-18T18:06:45Z'),
      lastLoginAt: new Date(1_700_000_000_000),
      subscriptions: [],
    });
  });

  it('makes a row with a bad date unreadable, saying which value', () => {
    expect(result.unreadable).toEqual([
      { rowNumber: 2, reason: "row 2: createdate 'abc' is not a date" },
    ]);
  });

  it("keeps the application's secret apart from the rows, as the file's KeyAuth settings", () => {
    expect(JSON.stringify(result.rows)).not.toContain('db40d586f4b189e04e5c');
    expect(result.application).toEqual({
      rowNumber: 1,
      ownerId: null,
      name: null,
      secret: APP_SECRET,
      problem: null,
    });
  });

  it("refuses KeyAuth's error answer with KeyAuth's words", () => {
    expectUnreadableFile(
      () => parseKeyAuthUsers('{"success":false,"message":"No Users Found"}'),
      /error answer from KeyAuth.*'No Users Found'/,
    );
  });
});

describe('parseKeyAuthUsers: rows it cannot read', () => {
  it('reports later occurrences of a username, trimmed, as duplicates', () => {
    const file = JSON.stringify({
      users: [{ username: 'alice' }, { username: 'bob' }, { username: '  alice ' }],
    });
    const { rows, unreadable } = parseKeyAuthUsers(file);
    expect(rows.map((row) => row.username)).toEqual(['alice', 'bob']);
    expect(unreadable).toEqual([
      { rowNumber: 3, reason: "row 3: username 'alice' is a duplicate of row 1" },
    ]);
  });

  it('makes a row with NUL or a lone surrogate unreadable, not the file', () => {
    const file = String.raw`{"users":[{"username":"a\u0000b"},{"username":"fine"},{"username":"x","hwid":"\ud800"}]}`;
    const { rows, unreadable } = parseKeyAuthUsers(utf8(file));
    expect(rows.map((row) => row.username)).toEqual(['fine']);
    expect(unreadable).toEqual([
      { rowNumber: 1, reason: 'row 1: username contains a NUL character or broken Unicode' },
      { rowNumber: 3, reason: 'row 3: hwid contains a NUL character or broken Unicode' },
    ]);
  });

  it('makes a row with a lone surrogate in a string input unreadable', () => {
    const { rows, unreadable } = parseKeyAuthUsers(`{"users":[{"username":"x\uD800y"}]}`);
    expect(rows).toEqual([]);
    expect(unreadable[0]?.reason).toBe(
      'row 1: username contains a NUL character or broken Unicode',
    );
  });

  it('makes a row without a username unreadable', () => {
    const { unreadable } = parseKeyAuthUsers('{"users":[{"username":"  "},{"email":null},7]}');
    expect(unreadable.map((row) => row.reason)).toEqual([
      'row 1: username is missing',
      'row 2: username is missing',
      'row 3: is not a JSON object',
    ]);
  });
});

describe('parseKeyAuthKeys: the panel file (KeyAuthKeys.json)', () => {
  const result = parseKeyAuthKeys(utf8(PANEL_KEYS));

  it('is detected as a bare array and turns days back into seconds', () => {
    expect(result.format).toBe('panel-json');
    expect(result.rows).toEqual([
      expect.objectContaining({ rowNumber: 1, key: 'AVZKQ7-TXPIPH-3L6GZS', level: '1' }),
      expect.objectContaining({ rowNumber: 2, key: 'CDOH16-UW234U-LKPCO0', level: '2' }),
    ]);
    expect(result.rows.map((row) => row.durationSeconds)).toEqual([2_592_000, 7_862_000]);
    expect(result.rows.every((row) => row.status === null)).toBe(true);
  });

  it('makes a row with an expiry that is not a number unreadable', () => {
    expect(result.unreadable).toEqual([
      { rowNumber: 3, reason: "row 3: expiry 'soon' is not a number of days" },
    ]);
  });

  it('reads an empty export as no rows', () => {
    expect(parseKeyAuthKeys('[]')).toEqual({
      format: 'panel-json',
      rows: [],
      unreadable: [],
      application: null,
    });
  });
});

describe("parseKeyAuthKeys: the seller API's fetchallkeys answer", () => {
  const result = parseKeyAuthKeys(SELLER_API_KEYS);

  it('maps Not Used, Used and Banned, with dates and who used the key', () => {
    expect(result.format).toBe('seller-api-json');
    expect(result.rows).toEqual([
      {
        rowNumber: 1,
        key: 'ZJ5C50-X3RHHF-06QTO8',
        level: '1',
        note: null,
        durationSeconds: 2_592_000,
        status: 'unused',
        banReason: null,
        usedBy: null,
        createdBy: 'SellerAPI',
        createdAt: new Date('2021-05-18T18:06:45Z'),
        usedAt: null,
      },
      expect.objectContaining({
        rowNumber: 2,
        note: 'for Discord giveaway',
        status: 'used',
        usedBy: 'alice',
        usedAt: new Date(1_621_400_000_000),
      }),
      expect.objectContaining({
        rowNumber: 3,
        status: 'banned',
        banReason: 'This key has been banned as the client was blacklisted.',
      }),
    ]);
    expect(() => keyAuthKeyRowSchema.array().parse(result.rows)).not.toThrow();
  });

  it('makes a row with an unknown status unreadable', () => {
    expect(result.unreadable).toEqual([
      { rowNumber: 4, reason: "row 4: status 'Paused' is not one of Not Used, Used, Banned" },
    ]);
  });

  it("ignores an `app` that is not KeyAuth's 64-hex secret, and keeps it out of the rows", () => {
    expect(JSON.stringify(result)).not.toContain('secret-of-the-app');
    expect(result.application).toBeNull();
  });

  it('reports duplicates without repeating the key, which is a secret', () => {
    const file = JSON.stringify({
      success: true,
      keys: [{ key: 'DUPE-1' }, { key: 'OTHER-2' }, { key: ' DUPE-1' }],
    });
    const { rows, unreadable } = parseKeyAuthKeys(file);
    expect(rows.map((row) => row.key)).toEqual(['DUPE-1', 'OTHER-2']);
    expect(unreadable).toEqual([{ rowNumber: 3, reason: 'row 3: duplicate of row 1' }]);
  });

  it('makes a row with a bad date unreadable', () => {
    const { unreadable } = parseKeyAuthKeys(
      JSON.stringify({ keys: [{ key: 'K-1', gendate: '2021-05-18' }] }),
    );
    expect(unreadable).toEqual([
      { rowNumber: 1, reason: "row 1: gendate '2021-05-18' is not a date" },
    ]);
  });
});

describe('parseKeyAuthKeys: the text list (KeyAuthKeys.txt, format=text)', () => {
  it("reads the panel's CRLF lines with line numbers", () => {
    const result = parseKeyAuthKeys(utf8('AVZKQ7-TXPIPH\r\nCDOH16-UW234U\r\nF7U7PX-QTXFC2'));
    expect(result.format).toBe('key-list-text');
    expect(result.rows.map((row) => [row.rowNumber, row.key])).toEqual([
      [1, 'AVZKQ7-TXPIPH'],
      [2, 'CDOH16-UW234U'],
      [3, 'F7U7PX-QTXFC2'],
    ]);
    expect(result.rows[0]).toMatchObject({ status: null, durationSeconds: null, level: null });
  });

  it('counts blank lines, so a row number is the line an editor shows', () => {
    const result = parseKeyAuthKeys('\uFEFFKEY-1\n\n  KEY-2  \nKEY-1\n');
    expect(result.rows.map((row) => [row.rowNumber, row.key])).toEqual([
      [1, 'KEY-1'],
      [3, 'KEY-2'],
    ]);
    expect(result.unreadable).toEqual([{ rowNumber: 4, reason: 'row 4: duplicate of row 1' }]);
  });

  it('makes a line with NUL or spaces unreadable, not the file', () => {
    const result = parseKeyAuthKeys(utf8('KEY-1\nKEY\u00002\nnot a key\nKEY-3'));
    expect(result.rows.map((row) => row.key)).toEqual(['KEY-1', 'KEY-3']);
    expect(result.unreadable).toEqual([
      { rowNumber: 2, reason: 'row 2: contains a NUL character or broken Unicode' },
      { rowNumber: 3, reason: 'row 3: is not a KeyAuth key (it contains spaces)' },
    ]);
  });
});

// --- KeyAuth's own tables exported as CSV (db_structure.sql: users :315-328, keys :202-215) ---

const USERS_COLUMNS =
  'id,username,email,password,hwid,app,owner,createdate,lastlogin,banned,ip,cooldown';
const KEYS_COLUMNS = 'id,key,note,expires,status,level,genby,gendate,usedon,usedby,app,banned';

/**
 * phpMyAdmin's CSV of `users`: "," and every value quoted, except NULL (written bare) and ""
 * (written as nothing). The same two users as SELLER_API_USERS.
 */
const USERS_CSV = [
  '"id","username","email","password","hwid","app","owner","createdate","lastlogin","banned","ip","cooldown"',
  `"11","dave",NULL,"${BCRYPT_B}",,"${APP_SECRET}","SellerAPI","1621361205","1700000000",NULL,"198.51.100.4",NULL`,
  `"12","erin",NULL,NULL,NULL,"${APP_SECRET}","reseller1","abc",NULL,NULL,NULL,NULL`,
  '',
].join('\n');

/** phpMyAdmin's CSV of `keys`, the same four keys as SELLER_API_KEYS. */
const KEYS_CSV = [
  '"id","key","note","expires","status","level","genby","gendate","usedon","usedby","app","banned"',
  '"1","ZJ5C50-X3RHHF-06QTO8",,"2592000","Not Used","1","SellerAPI","1621361205",NULL,NULL,"secret-of-the-app",NULL',
  '"2","ZED7IY-1GFBCW-SJDH5T","for Discord giveaway","86400","Used","2","reseller1","1621361213","1621400000","alice","secret-of-the-app",NULL',
  '"3","Q1W2E3-R4T5Y6-U7I8O9",NULL,"604800","Banned","1","SellerAPI","1621361300","1621400100","bob","secret-of-the-app","This key has been banned as the client was blacklisted."',
  '"4","PAUSED-KEY-000001",NULL,"86400","Paused","1","SellerAPI","1621361300",NULL,NULL,"secret-of-the-app",NULL',
].join('\r\n');

const withoutRowNumbers = (result: KeyAuthUsersParse | KeyAuthKeysParse) =>
  result.rows.map(({ rowNumber: _rowNumber, ...row }) => row);

describe('parseKeyAuthUsers: a CSV export of the users table', () => {
  const result = parseKeyAuthUsers(utf8(USERS_CSV));

  it('is detected by its header and read exactly as the fetchallusers answer', () => {
    const fromJson = parseKeyAuthUsers(SELLER_API_USERS);
    expect(result.format).toBe('table-csv');
    expect(withoutRowNumbers(result)).toEqual(withoutRowNumbers(fromJson));
    expect(result.rows[0]).toMatchObject({
      rowNumber: 2,
      username: 'dave',
      passwordHash: BCRYPT_B,
      hwid: null,
      email: null,
      createdBy: 'SellerAPI',
      createdAt: new Date('2021-05-18T18:06:45Z'),
      lastLoginAt: new Date(1_700_000_000_000),
      subscriptions: [],
    });
    expect(() => keyAuthUserRowSchema.array().parse(result.rows)).not.toThrow();
  });

  it('numbers rows by their line, the header being line 1', () => {
    expect(result.unreadable).toEqual([
      { rowNumber: 3, reason: "row 3: createdate 'abc' is not a date" },
    ]);
    expect(() => unreadableRowSchema.array().parse(result.unreadable)).not.toThrow();
  });

  it("keeps the application's secret apart from the rows, numbered by its line", () => {
    expect(JSON.stringify(result.rows)).not.toContain('db40d586f4b189e04e5c');
    expect(result.application).toMatchObject({ rowNumber: 2, secret: APP_SECRET });
  });

  it('reads ";" with CRLF, a BOM and a header in any case, unquoted (CSV for MS Excel)', () => {
    const file = [
      'ID;UserName;Email;Password;HWID;App;Owner;CreateDate;LastLogin;Banned;IP;Cooldown',
      `1;alice;${EMAIL_SHA1.toUpperCase()};${BCRYPT_A};HWID-1;${APP_SECRET};SellerAPI;1621361205;;"Chargeback, ""fraud""; card";203.0.113.7;`,
      `2;bob;;hunter2;;${APP_SECRET};;;;;;`,
    ].join('\r\n');
    const { format, rows, unreadable } = parseKeyAuthUsers(
      new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(file)]),
    );
    expect(format).toBe('table-csv');
    expect(unreadable).toEqual([]);
    expect(rows[0]).toMatchObject({
      rowNumber: 2,
      username: 'alice',
      passwordHash: BCRYPT_A,
      emailSha1: EMAIL_SHA1,
      hwid: 'HWID-1',
      lastIp: '203.0.113.7',
      lastLoginAt: null,
      isBanned: true,
      banReason: 'Chargeback, "fraud"; card',
    });
    expect(rows[1]).toMatchObject({ rowNumber: 3, passwordHash: null, hadPlainPassword: true });
    expect(JSON.stringify(rows)).not.toContain('hunter2');
  });

  it('reads bare NULL and \\N as null, and a quoted "NULL" as text', () => {
    const file = [
      USERS_COLUMNS,
      String.raw`1,"NULL",\N,\N,\N,x,\N,\N,\N,\N,\N,\N`,
      '2,carol,NULL,NULL,NULL,x,NULL,NULL,NULL,"NULL",NULL,NULL',
    ].join('\n');
    const { rows, unreadable } = parseKeyAuthUsers(file);
    expect(unreadable).toEqual([]);
    expect(rows[0]).toMatchObject({
      username: 'NULL',
      passwordHash: null,
      hadPlainPassword: false,
      hwid: null,
      isBanned: false,
      createdAt: null,
    });
    expect(rows[1]).toMatchObject({ username: 'carol', isBanned: true, banReason: 'NULL' });
  });

  it('numbers a row by the line it starts on when an earlier value spans lines', () => {
    const file = [
      USERS_COLUMNS,
      '1,alice,,,,x,,,,"banned:\r\nshared the key\r\nin Discord",,',
      '2,bob,,,,x,,yesterday,,,,',
      '3,carol,,,',
      '4,alice,,,,x,,,,,,',
    ].join('\r\n');
    const { rows, unreadable } = parseKeyAuthUsers(file);
    expect(rows).toEqual([
      expect.objectContaining({
        rowNumber: 2,
        username: 'alice',
        banReason: 'banned:\r\nshared the key\r\nin Discord',
      }),
    ]);
    expect(unreadable).toEqual([
      { rowNumber: 5, reason: "row 5: createdate 'yesterday' is not a date" },
      { rowNumber: 6, reason: 'row 6: 5 fields, the header has 12' },
      { rowNumber: 7, reason: "row 7: username 'alice' is a duplicate of row 2" },
    ]);
  });

  it('makes a row with too many fields or no username unreadable, not the file', () => {
    const file = `${USERS_COLUMNS}\n1,dave,,,,x,,,,,,,extra\n2,,,,,x,,,,,,\n3,erin,,,,x,,,,,,\n`;
    const { rows, unreadable } = parseKeyAuthUsers(file);
    expect(rows.map((row) => [row.rowNumber, row.username])).toEqual([[4, 'erin']]);
    expect(unreadable).toEqual([
      { rowNumber: 2, reason: 'row 2: 13 fields, the header has 12' },
      { rowNumber: 3, reason: 'row 3: username is missing' },
    ]);
  });

  it('reads only the columns of `users`: others are ignored, even one named subscriptions', () => {
    const file = 'username,subscriptions,level,password\nalice,"[1,2]",3,\n';
    const { rows, unreadable } = parseKeyAuthUsers(file);
    expect(unreadable).toEqual([]);
    expect(rows).toEqual([expect.objectContaining({ username: 'alice', subscriptions: [] })]);
  });

  it('reads a header with no rows as an empty export', () => {
    expect(parseKeyAuthUsers(`${USERS_COLUMNS}\r\n`)).toEqual({
      format: 'table-csv',
      rows: [],
      unreadable: [],
      application: null,
    });
  });
});

describe('parseKeyAuthKeys: a CSV export of the keys table', () => {
  const result = parseKeyAuthKeys(utf8(KEYS_CSV));

  it('is detected by its header and read exactly as the fetchallkeys answer', () => {
    const fromJson = parseKeyAuthKeys(SELLER_API_KEYS);
    expect(result.format).toBe('table-csv');
    expect(withoutRowNumbers(result)).toEqual(withoutRowNumbers(fromJson));
    expect(result.rows.map((row) => [row.rowNumber, row.status])).toEqual([
      [2, 'unused'],
      [3, 'used'],
      [4, 'banned'],
    ]);
    expect(result.rows[1]).toMatchObject({
      note: 'for Discord giveaway',
      durationSeconds: 86_400,
      usedBy: 'alice',
      usedAt: new Date(1_621_400_000_000),
      createdBy: 'reseller1',
    });
    expect(() => keyAuthKeyRowSchema.array().parse(result.rows)).not.toThrow();
  });

  it('makes a row with an unknown status unreadable, numbered by its line', () => {
    expect(result.unreadable).toEqual([
      { rowNumber: 5, reason: "row 5: status 'Paused' is not one of Not Used, Used, Banned" },
    ]);
  });

  it("ignores an `app` that is not KeyAuth's 64-hex secret, and keeps it out of the rows", () => {
    expect(JSON.stringify(result)).not.toContain('secret-of-the-app');
    expect(result.application).toBeNull();
  });

  it('reads ";" and a note with ";", a line break and quotes', () => {
    const file = [
      KEYS_COLUMNS.replaceAll(',', ';'),
      '1;KEY-A;"for ""VIP""; see\nticket 12";3600;Used;2;;;;;x;',
      '2;KEY-B;NULL;60;Not Used;1;;;;;x;NULL',
    ].join('\n');
    const { format, rows, unreadable } = parseKeyAuthKeys(file);
    expect(format).toBe('table-csv');
    expect(unreadable).toEqual([]);
    expect(rows.map((row) => [row.rowNumber, row.key, row.note])).toEqual([
      [2, 'KEY-A', 'for "VIP"; see\nticket 12'],
      [4, 'KEY-B', null],
    ]);
  });

  it('reports duplicates and short rows without repeating the key, which is a secret', () => {
    const file = `${KEYS_COLUMNS}\n1,DUPE-1,,60,Used,1,,,,,x,\n2,DUPE-1 ,,60,Used,1,,,,,x,\n3,SHORT-KEY-9,60\n`;
    const { rows, unreadable } = parseKeyAuthKeys(file);
    expect(rows.map((row) => row.key)).toEqual(['DUPE-1']);
    expect(unreadable).toEqual([
      { rowNumber: 3, reason: 'row 3: duplicate of row 2' },
      { rowNumber: 4, reason: 'row 4: 3 fields, the header has 12' },
    ]);
    expect(JSON.stringify(unreadable)).not.toContain('SHORT-KEY');
  });

  it('still reads a plain key list whose first line is a key, not a header', () => {
    expect(parseKeyAuthKeys('KEY-1\r\nkey\r\nKEY-2').format).toBe('key-list-text');
  });
});

describe('CSV files that cannot be read at all', () => {
  it("refuses KeyAuth's subs table, or a query joining it, as users or keys", () => {
    const subs = 'id,user,subscription,expiry,app,key,paused\n1,alice,default,1767225600,x,KEY-1,0';
    expectUnreadableFile(() => parseKeyAuthKeys(subs), /column "subscription" of KeyAuth's subs/);
    const joined = `username,password,subscription,expiry\nalice,,default,1767225600`;
    expectUnreadableFile(() => parseKeyAuthUsers(joined), /not the users table/);
  });

  it('refuses a users CSV without a username column, naming what it expected', () => {
    expectUnreadableFile(
      () => parseKeyAuthUsers('id,user,hwid\n1,alice,H'),
      /expected a KeyAuth users.*CSV export of the users table/,
    );
  });

  it('refuses a header naming a column twice', () => {
    expectUnreadableFile(
      () => parseKeyAuthUsers('username,email,Email\nalice,a,b'),
      /names the column 'email' twice/,
    );
  });

  it('refuses broken quoting with the line, without quoting the file', () => {
    let message = '';
    try {
      parseKeyAuthKeys('id,key,note\n1,SECRET-KEY-1,ok\n2,"SECRET-KEY-2\\"x",n\n');
    } catch (error) {
      expect(error).toBeInstanceOf(UnreadableExportError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/cannot be read \(line 3: text follows a closing quote/);
    expect(message).not.toContain('SECRET-KEY');
  });
});

describe('files that cannot be read at all', () => {
  it('refuses bytes that are not UTF-8', () => {
    const latin1 = new Uint8Array([0x4b, 0x45, 0x59, 0xe9, 0x0a]);
    expectUnreadableFile(() => parseKeyAuthKeys(latin1), /not valid UTF-8/);
    expectUnreadableFile(() => parseKeyAuthUsers(latin1), /not valid UTF-8/);
  });

  it('accepts a UTF-8 byte-order mark', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"users":[{"username":"é"}]}')]);
    expect(parseKeyAuthUsers(withBom).rows[0]?.username).toBe('é');
  });

  it('refuses an empty file', () => {
    expectUnreadableFile(() => parseKeyAuthUsers(new Uint8Array()), /empty/);
    expectUnreadableFile(() => parseKeyAuthKeys(' \r\n'), /empty/);
  });

  it('refuses shapes it does not recognise, naming what it expected', () => {
    expectUnreadableFile(() => parseKeyAuthUsers('KEY-1\r\nKEY-2'), /expected a KeyAuth users/);
    expectUnreadableFile(() => parseKeyAuthUsers('[{"username":"a"}]'), /fetchallusers/);
    expectUnreadableFile(() => parseKeyAuthKeys('{"users":[]}'), /expected a KeyAuth keys/);
    expectUnreadableFile(() => parseKeyAuthKeys('Application not selected.'), /one key per line/);
    expectUnreadableFile(() => parseKeyAuthKeys('<!DOCTYPE html><html>'), /web page/);
  });

  it('refuses broken JSON without quoting the file', () => {
    let message = '';
    try {
      parseKeyAuthKeys('[{"key":"SECRET-KEY-1"},{"key":"SECRET-KEY-2"');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/not valid JSON/);
    expect(message).not.toContain('SECRET-KEY');
  });
});

describe('the row limit', () => {
  const keyList = (count: number) =>
    Array.from({ length: count }, (_, index) => `KEY-${index}`).join('\r\n');

  it(`reads ${KEYAUTH_EXPORT_MAX_ROWS} rows`, () => {
    const result = parseKeyAuthKeys(keyList(KEYAUTH_EXPORT_MAX_ROWS));
    expect(result.rows).toHaveLength(KEYAUTH_EXPORT_MAX_ROWS);
    expect(result.rows.at(-1)?.rowNumber).toBe(KEYAUTH_EXPORT_MAX_ROWS);
  });

  it('refuses one row more, in every format', () => {
    const tooMany = KEYAUTH_EXPORT_MAX_ROWS + 1;
    expectUnreadableFile(() => parseKeyAuthKeys(keyList(tooMany)), /at most 200000/);
    const keys = Array.from({ length: tooMany }, (_, index) => ({ key: `K-${index}` }));
    expectUnreadableFile(() => parseKeyAuthKeys(JSON.stringify(keys)), /200001 rows/);
    const users = keys.map((entry) => ({ username: entry.key }));
    expectUnreadableFile(() => parseKeyAuthUsers(JSON.stringify({ users })), /200001 rows/);
    expectUnreadableFile(() => parseKeyAuthKeys(`key\n${keyList(tooMany)}`), /200001 rows/);
    expectUnreadableFile(() => parseKeyAuthUsers(`username\n${keyList(tooMany)}`), /200001 rows/);
  });

  it(`reads ${KEYAUTH_EXPORT_MAX_ROWS} CSV rows: the header is not a row`, () => {
    const result = parseKeyAuthKeys(`"key"\r\n${keyList(KEYAUTH_EXPORT_MAX_ROWS)}`);
    expect(result.format).toBe('table-csv');
    expect(result.rows).toHaveLength(KEYAUTH_EXPORT_MAX_ROWS);
    expect(result.rows.at(-1)?.rowNumber).toBe(KEYAUTH_EXPORT_MAX_ROWS + 1);
  });
});

// --- KeyAuth's other exports: the seller API's answers (api/seller/index.php before f3dc6b9,
// keyauth-docs' examples) and CSVs of the tables (db_structure.sql) ---

/** seller/subscriptions.md, fetchallsubs. */
const SELLER_API_SUBS = String.raw`{"success":true,"message":"Successfully retrieved subscriptions","subs":[{"name":"default","level":"1"},{"name":"Premium","level":"2"},{"name":"VIP","level":"2"}]}`;

/** seller/variables.md, fetchallvars: no `authed` (index.php selects varid and msg). */
const SELLER_API_VARS = String.raw`{"success":true,"message":"Successfully retrieved variables","vars":[{"varid":"varnamehere","msg":"vardatahere"},{"varid":"varnamehere1","msg":"vardatahere1"}]}`;

/** seller/users.md, fetchalluservars: the same "vars" list, other fields. */
const SELLER_API_USERVARS = String.raw`{"success":true,"message":"Successfully retrieved user variables","vars":[{"name":"varnamehere","data":"vardatahere","user":"mak"}]}`;

/** index.php:230-251, fetchallblacks. */
const SELLER_API_BLACKS = String.raw`{"success":true,"message":"Successfully retrieved blacklists","blacklists":[{"hwid":null,"ip":"1.1.1.1","type":"ip"},{"hwid":"S-1-5-21-213299988-1053324923-381067229-1001","ip":null,"type":"hwid"},{"hwid":null,"ip":"2001:DB8:0::1","type":"ip"}]}`;

/** seller/files.md, fetchallfiles: an id and a URL, no name. */
const SELLER_API_FILES = String.raw`{"success":true,"message":"Successfully retrieved files","files":[{"id":"891188","url":"https:\/\/a.pomf.cat\/tnpraf.tar.gz"},{"id":"650285","url":"https:\/\/cdn.discordapp.com\/attachments\/824400483619176461\/1044401534819123220\/yubikey-manager-qt-1.2.4-win64.exe"}]}`;

describe('parseKeyAuthSubscriptions', () => {
  it("reads the seller API's fetchallsubs answer", () => {
    const result = parseKeyAuthSubscriptions(utf8(SELLER_API_SUBS));
    expect(result).toEqual({
      format: 'seller-api-json',
      rows: [
        { rowNumber: 1, name: 'default', level: '1' },
        { rowNumber: 2, name: 'Premium', level: '2' },
        { rowNumber: 3, name: 'VIP', level: '2' },
      ],
      unreadable: [],
      application: null,
    });
    expect(() => keyAuthSubscriptionRowSchema.array().parse(result.rows)).not.toThrow();
  });

  it('reads a CSV of the subscriptions table, its secret apart from the rows', () => {
    const file = `id,name,level,app\n1,default,1,${APP_SECRET}\n2,default,3,${APP_SECRET}\n3,Gold,,${APP_SECRET}\n`;
    const result = parseKeyAuthSubscriptions(file);
    expect(result.format).toBe('table-csv');
    expect(result.rows).toEqual([{ rowNumber: 2, name: 'default', level: '1' }]);
    expect(result.unreadable).toEqual([
      { rowNumber: 3, reason: "row 3: subscription 'default' is a duplicate of row 2" },
      { rowNumber: 4, reason: 'row 4: level is missing' },
    ]);
    expect(result.application).toMatchObject({ rowNumber: 2, secret: APP_SECRET });
    expect(JSON.stringify(result.rows)).not.toContain(APP_SECRET.slice(0, 20));
  });

  it("refuses the keys table, which has a level but no name, and the blacklist's answer", () => {
    expectUnreadableFile(
      () => parseKeyAuthSubscriptions(`${KEYS_COLUMNS}\n1,KEY-1,,60,Used,1,,,,,x,`),
      /does not name "name", which KeyAuth's subscriptions table has/,
    );
    expectUnreadableFile(
      () => parseKeyAuthSubscriptions('{"success":true,"subs":[{"hwid":null,"ip":"1.1.1.1"}]}'),
      /expected a KeyAuth subscriptions export/,
    );
  });

  it('makes a name longer than a plan name unreadable', () => {
    const result = parseKeyAuthSubscriptions(
      JSON.stringify({ subs: [{ name: 'x'.repeat(101), level: '1' }] }),
    );
    expect(result.unreadable[0]?.reason).toMatch(/longer than a plan name's 100 characters/);
  });

  it(`refuses more than ${KEYAUTH_SUBSCRIPTIONS_MAX_ROWS} subscriptions, before any plan`, () => {
    const subs = (count: number) =>
      JSON.stringify({
        subs: Array.from({ length: count }, (_, index) => ({ name: `S${index}`, level: index })),
      });
    expect(parseKeyAuthSubscriptions(subs(KEYAUTH_SUBSCRIPTIONS_MAX_ROWS)).rows).toHaveLength(
      KEYAUTH_SUBSCRIPTIONS_MAX_ROWS,
    );
    expectUnreadableFile(
      () => parseKeyAuthSubscriptions(subs(KEYAUTH_SUBSCRIPTIONS_MAX_ROWS + 1)),
      /1001 rows; a KeyAuth subscriptions export has at most 1000/,
    );
  });
});

describe('parseKeyAuthVariables', () => {
  it("reads fetchallvars: no authed in that answer, so KeyAuth's default (a session) holds", () => {
    const result = parseKeyAuthVariables(SELLER_API_VARS);
    expect(result.rows).toEqual([
      { rowNumber: 1, name: 'varnamehere', value: 'vardatahere', requiresSession: true },
      { rowNumber: 2, name: 'varnamehere1', value: 'vardatahere1', requiresSession: true },
    ]);
    expect(() => keyAuthVariableRowSchema.array().parse(result.rows)).not.toThrow();
  });

  it('reads a CSV of the vars table with authed, values exactly as found', () => {
    const file = [
      'id,varid,msg,app,authed',
      `1,kill_switch,"  off ",${APP_SECRET},0`,
      `2,motd,"",${APP_SECRET},1`,
      `3,"has space",x,${APP_SECRET},1`,
      `4,odd,x,${APP_SECRET},2`,
    ].join('\r\n');
    const result = parseKeyAuthVariables(file);
    expect(result.rows).toEqual([
      { rowNumber: 2, name: 'kill_switch', value: '  off ', requiresSession: false },
      { rowNumber: 3, name: 'motd', value: '', requiresSession: true },
    ]);
    expect(result.unreadable).toEqual([
      {
        rowNumber: 4,
        reason:
          "row 4: varid 'has space' cannot be a Latchkey variable name (1 to 64 letters, digits, _, . or -)",
      },
      { rowNumber: 5, reason: "row 5: authed '2' is not 0 or 1" },
    ]);
  });

  it("makes a value past Latchkey's 64 KB unreadable, never cut short", () => {
    const result = parseKeyAuthVariables(
      JSON.stringify({ vars: [{ varid: 'big', msg: 'é'.repeat(32 * 1024 + 1) }] }),
    );
    expect(result.rows).toEqual([]);
    expect(result.unreadable[0]?.reason).toBe('row 1: msg is longer than 64 KB');
  });

  it("says which kind a users' variables answer is", () => {
    expectUnreadableFile(() => parseKeyAuthVariables(SELLER_API_USERVARS), /as user variables/);
  });
});

describe('parseKeyAuthUserVariables', () => {
  it('reads fetchalluservars, and a CSV of uservars with readOnly', () => {
    const fromJson = parseKeyAuthUserVariables(SELLER_API_USERVARS);
    expect(fromJson.rows).toEqual([
      {
        rowNumber: 1,
        username: 'mak',
        name: 'varnamehere',
        value: 'vardatahere',
        isReadOnly: false,
      },
    ]);
    const file = `id,name,data,user,app,readOnly\n1,tier,gold,mak,${APP_SECRET},1\n2,tier,x,mak,${APP_SECRET},0\n`;
    const fromCsv = parseKeyAuthUserVariables(file);
    expect(fromCsv.rows).toEqual([
      { rowNumber: 2, username: 'mak', name: 'tier', value: 'gold', isReadOnly: true },
    ]);
    expect(fromCsv.unreadable).toEqual([
      { rowNumber: 3, reason: "row 3: variable 'tier' of user 'mak' is a duplicate of row 2" },
    ]);
    expect(() => keyAuthUserVariableRowSchema.array().parse(fromCsv.rows)).not.toThrow();
  });

  it("makes a user's 101st variable unreadable, and a value past 16 KB", () => {
    const vars = Array.from({ length: 101 }, (_, index) => ({
      name: `v${index}`,
      data: 'x',
      user: 'mak',
    }));
    vars.push({ name: 'big', data: 'x'.repeat(16 * 1024 + 1), user: 'other' });
    const result = parseKeyAuthUserVariables(JSON.stringify({ vars }));
    expect(result.rows).toHaveLength(100);
    expect(result.unreadable).toEqual([
      {
        rowNumber: 101,
        reason: "row 101: user 'mak' has more than the 100 variables an end user may hold",
      },
      { rowNumber: 102, reason: 'row 102: data is longer than 16 KB' },
    ]);
  });

  it("says which kind the application's variables answer is", () => {
    expectUnreadableFile(() => parseKeyAuthUserVariables(SELLER_API_VARS), /as variables/);
  });
});

describe('parseKeyAuthBans', () => {
  it('reads fetchallblacks: IPs as the client API compares them, HWIDs exactly', () => {
    const result = parseKeyAuthBans(SELLER_API_BLACKS);
    expect(result.rows).toEqual([
      { rowNumber: 1, type: 'ip', value: '1.1.1.1' },
      { rowNumber: 2, type: 'hwid', value: 'S-1-5-21-213299988-1053324923-381067229-1001' },
      { rowNumber: 3, type: 'ip', value: '2001:db8::1' },
    ]);
    expect(() => keyAuthBanRowSchema.array().parse(result.rows)).not.toThrow();
  });

  it('reads the list the docs show under "subs", and a CSV of the bans table', () => {
    const docs = String.raw`{"success":true,"message":"Successfully retrieved blacklists","subs":[{"hwid":null,"ip":"1.1.1.1","type":"ip"},{"hwid":null,"ip":"8.8.8.8","type":"ip"}]}`;
    expect(parseKeyAuthBans(docs).rows.map((row) => row.value)).toEqual(['1.1.1.1', '8.8.8.8']);
    const file = `id,hwid,ip,type,app\n1,NULL,10.0.0.1,ip,${APP_SECRET}\n2,HW-1,NULL,hwid,${APP_SECRET}\n`;
    const result = parseKeyAuthBans(file);
    expect(result.format).toBe('table-csv');
    expect(result.rows.map((row) => [row.rowNumber, row.type, row.value])).toEqual([
      [2, 'ip', '10.0.0.1'],
      [3, 'hwid', 'HW-1'],
    ]);
  });

  it('makes a bad row unreadable: not an IP, too long, no type, a duplicate', () => {
    const result = parseKeyAuthBans(
      JSON.stringify({
        blacklists: [
          { ip: '1.2.3', type: 'ip' },
          { hwid: 'H'.repeat(257), type: 'hwid' },
          { hwid: 'HW', ip: '1.1.1.1' },
          { ip: '::FFFF:1.1.1.1' },
          { ip: '1.1.1.1', type: 'ip' },
          { hwid: 'HW', type: 'mac' },
        ],
      }),
    );
    expect(result.rows).toEqual([{ rowNumber: 4, type: 'ip', value: '1.1.1.1' }]);
    expect(result.unreadable.map((row) => row.reason)).toEqual([
      "row 1: ip '1.2.3' is not an IP address",
      "row 2: hwid is longer than a blacklist entry's 256 characters",
      'row 3: has no type and not exactly one of hwid and ip',
      'row 5: ip 1.1.1.1 is a duplicate of row 4',
      "row 6: type 'mac' is not hwid or ip",
    ]);
  });

  it('refuses the users table, whose hwid and ip are no bans', () => {
    expectUnreadableFile(
      () => parseKeyAuthBans(`${USERS_COLUMNS}\n11,dave,,,HW-1,x,,,,,1.2.3.4,`),
      /expected a KeyAuth blacklist export/,
    );
  });
});

describe('parseKeyAuthFiles', () => {
  it("reads fetchallfiles, naming each file as KeyAuth did (its URL's last segment)", () => {
    const result = parseKeyAuthFiles(SELLER_API_FILES);
    expect(result.rows).toEqual([
      { rowNumber: 1, fileId: '891188', name: 'tnpraf.tar.gz', requiresSession: true },
      {
        rowNumber: 2,
        fileId: '650285',
        name: 'yubikey-manager-qt-1.2.4-win64.exe',
        requiresSession: true,
      },
    ]);
    expect(() => keyAuthFileRowSchema.array().parse(result.rows)).not.toThrow();
  });

  it('keeps no URL: it may be what kept the download private, and nothing fetches it', () => {
    const result = parseKeyAuthFiles(SELLER_API_FILES);
    expect(JSON.stringify(result)).not.toContain('pomf');
    expect(JSON.stringify(result)).not.toContain('discordapp');
  });

  it('reads a CSV of the files table with its names and authed', () => {
    const file = [
      'pk,name,id,url,size,uploaddate,app,authed',
      `1,loader.exe,577167,https://example.com/l.exe,1.2 MB,1621361205,${APP_SECRET},0`,
      `2,NULL,577168,javascript:alert(1),1 KB,1621361205,${APP_SECRET},1`,
    ].join('\n');
    const result = parseKeyAuthFiles(file);
    expect(result.rows).toEqual([
      { rowNumber: 2, fileId: '577167', name: 'loader.exe', requiresSession: false },
      { rowNumber: 3, fileId: '577168', name: 'keyauth-file-577168', requiresSession: true },
    ]);
    expect(result.application).toMatchObject({ secret: APP_SECRET });
  });
});

/** db_structure.sql:51-131, a few of its columns; the row's credentials besides the three. */
const APPS_COLUMNS = 'id,owner,name,secret,ownerid,enabled,sellerkey,sellixsecret,webhook';
const appsRow = (id: number, name: string, secret: string, ownerId: string) =>
  `${id},seller1,${name},${secret},${ownerId},1,0123456789abcdef0123456789abcdef,SELLIXSECRETVALUE,https://discord.com/api/webhooks/1/abc`;

describe('parseKeyAuthApplication: the apps table', () => {
  it("reads the application's owner id, name and secret, and none of its other credentials", () => {
    const result = parseKeyAuthApplication(
      `${APPS_COLUMNS}\n${appsRow(7, 'Loader', APP_SECRET.toUpperCase(), 'hTmfnZOYPe')}\n`,
    );
    expect(result).toEqual({
      format: 'table-csv',
      application: {
        rowNumber: 2,
        ownerId: 'hTmfnZOYPe',
        name: 'Loader',
        secret: APP_SECRET,
        problem: null,
      },
      unreadable: [],
    });
    const text = JSON.stringify(result);
    for (const credential of ['0123456789abcdef', 'SELLIX', 'webhooks']) {
      expect(text).not.toContain(credential);
    }
  });

  it('refuses several applications, and a file without a readable one, saying why', () => {
    const other = 'f'.repeat(64);
    expectUnreadableFile(
      () =>
        parseKeyAuthApplication(
          `${APPS_COLUMNS}\n${appsRow(1, 'A', APP_SECRET, 'hTmfnZOYPe')}\n${appsRow(2, 'B', other, 'hTmfnZOYPe')}`,
        ),
      /holds 2 applications \(rows 2, 3\); export only the row/,
    );
    expectUnreadableFile(
      () => parseKeyAuthApplication(`${APPS_COLUMNS}\n${appsRow(1, 'A', APP_SECRET, 'short')}`),
      /no readable application \(row 2: ownerid 'short' is not 10 letters or digits\)/,
    );
    expectUnreadableFile(
      () => parseKeyAuthApplication(`${APPS_COLUMNS}\n${appsRow(1, 'A', 'not-hex', 'hTmfnZOYPe')}`),
      /row 2: secret is not 64 hex/,
    );
    expectUnreadableFile(() => parseKeyAuthApplication('{"apps":[]}'), /apps table/);
  });
});

describe("the application's secret in the users and keys tables", () => {
  it('is refused when the rows hold two, without quoting either', () => {
    const other = 'e'.repeat(64);
    const file = `${USERS_COLUMNS}\n1,a,,,,${APP_SECRET},,,,,,\n2,b,,,,${APP_SECRET},,,,,,\n3,c,,,,${other},,,,,,\n`;
    const { rows, application } = parseKeyAuthUsers(file);
    expect(rows).toHaveLength(3);
    expect(application).toEqual({
      rowNumber: 2,
      ownerId: null,
      name: null,
      secret: null,
      problem:
        'rows 2 and 4 hold different application secrets (the file mixes KeyAuth applications), so neither is written',
    });
  });
});

describe("hostile files of KeyAuth's other exports", () => {
  const parsers = [
    parseKeyAuthSubscriptions,
    parseKeyAuthVariables,
    parseKeyAuthUserVariables,
    parseKeyAuthBans,
    parseKeyAuthFiles,
    parseKeyAuthApplication,
  ];

  it("refuses bytes that are not UTF-8, empty files, HTML and KeyAuth's error answers", () => {
    for (const parse of parsers) {
      expectUnreadableFile(() => parse(new Uint8Array([0x7b, 0xff, 0x7d])), /not valid UTF-8/);
      expectUnreadableFile(() => parse(''), /empty/);
      expectUnreadableFile(
        () => parse('<html><body>Application not selected.'),
        /not recognisable/,
      );
    }
    expectUnreadableFile(
      () => parseKeyAuthVariables('{"success":false,"message":"No variables Found"}'),
      /error answer from KeyAuth.*'No variables Found'/,
    );
  });

  it('refuses JSON nested a million deep, or cut short, without quoting it', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    for (const parse of parsers) expect(() => parse(deep)).toThrow(UnreadableExportError);
    expectUnreadableFile(
      () => parseKeyAuthVariables('{"vars":[{"varid":"SECRET'),
      /not valid JSON/,
    );
  });

  it('makes rows of the wrong shape unreadable, not the file', () => {
    const result = parseKeyAuthVariables(
      JSON.stringify({
        vars: [
          { varid: 'a', msg: 'x' },
          'a string',
          null,
          { varid: ['a'], msg: 'x' },
          { varid: 'b', msg: { nested: true } },
          { varid: 'c', msg: 'x\u0000y' },
          { varid: 'd', msg: 'ok' },
        ],
      }),
    );
    expect(result.rows.map((row) => [row.name, row.requiresSession])).toEqual([
      ['a', true],
      ['d', true],
    ]);
    expect(result.unreadable.map((row) => row.reason)).toEqual([
      'row 2: is not a JSON object',
      'row 3: is not a JSON object',
      'row 4: varid is not text',
      'row 5: msg is not text',
      'row 6: msg contains a NUL character or broken Unicode',
    ]);
  });

  it('keeps a JSON "__proto__" key a plain field: it sets nothing', () => {
    const result = parseKeyAuthFiles(
      '{"files":[{"id":"1","url":"https://x.test/a.zip","__proto__":{"authed":0,"name":"evil"}}]}',
    );
    expect(result.rows).toEqual([
      { rowNumber: 1, fileId: '1', name: 'a.zip', requiresSession: true },
    ]);
  });

  it(`refuses more than ${KEYAUTH_EXPORT_MAX_ROWS} rows, in either form`, () => {
    const tooMany = KEYAUTH_EXPORT_MAX_ROWS + 1;
    const bans = Array.from({ length: tooMany }, (_, index) => ({
      hwid: `H${index}`,
      type: 'hwid',
    }));
    expectUnreadableFile(
      () => parseKeyAuthBans(JSON.stringify({ blacklists: bans })),
      /200001 rows/,
    );
    const lines = Array.from({ length: tooMany }, (_, index) => `v${index},x,u`).join('\n');
    expectUnreadableFile(
      () => parseKeyAuthUserVariables(`name,data,user\n${lines}`),
      /200001 rows/,
    );
  });
});
