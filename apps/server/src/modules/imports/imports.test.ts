import { hashSync } from '@node-rs/bcrypt';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clientAuthResponseSchema, importProgressSchema } from '@latchkey/contracts';
import {
  appUserDevices,
  appUsers,
  auditEntries,
  importRows,
  imports,
  licenseKeys,
  subscriptions,
} from '../../db/schema/index.ts';
import {
  callClientApi,
  createApiTokenViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
  insertAppUser,
  insertClientApplication,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { UNUSABLE_PASSWORD_HASH } from './write-imported-users.ts';
import { clientOutcome } from '../../../test/client-calls.ts';

const PASSWORD = 'correct horse battery staple';
/** PHP's password_hash writes $2y$; cost 4 keeps the test quick. */
const bcryptHash = (password: string) => hashSync(password, 4).replace(/^\$2b\$/, '$2y$');

const inAYear = Math.floor(Date.UTC(2031, 0, 1) / 1000);
const lastYear = Math.floor(Date.UTC(2024, 0, 1) / 1000);

/** KeyAuth's panel "Export Users" file (app/download-types.php): users, then subscriptions. */
function panelUsersFile(existingUsername: string): string {
  return JSON.stringify({
    users: [
      {
        username: 'alice',
        email: null,
        password: bcryptHash(PASSWORD),
        hwid: 'HW-ALICE',
        banned: null,
        ip: '1.2.3.4',
      },
      {
        username: 'bob',
        email: 'a'.repeat(40),
        password: null,
        hwid: null,
        banned: null,
        ip: null,
      },
      {
        username: 'carol',
        email: null,
        password: bcryptHash('other'),
        hwid: null,
        banned: 'chargeback',
        ip: null,
      },
      {
        username: existingUsername,
        email: null,
        password: bcryptHash(PASSWORD),
        hwid: null,
        banned: null,
        ip: null,
      },
      { email: null, password: null },
      { username: 'alice', password: null },
    ],
    subscription: [
      { user: 'alice', subscription: 'default', expiry: String(inAYear) },
      { user: 'carol', subscription: 'default', expiry: String(lastYear) },
    ],
  });
}

/** The seller API's fetchallkeys answer, every column of KeyAuth's `keys` table. */
function sellerKeysFile(
  keys: { key: string; level: string; status: string; usedby?: string; banned?: string }[],
) {
  return JSON.stringify({
    success: true,
    message: 'Successfully retrieved licenses',
    keys: keys.map((key) => ({
      key: key.key,
      note: 'from keyauth',
      expires: '2592000',
      status: key.status,
      level: key.level,
      genby: 'seller',
      gendate: String(lastYear),
      usedon: key.status === 'Used' ? String(lastYear + 60) : null,
      usedby: key.usedby ?? null,
      banned: key.banned ?? null,
    })),
  });
}

describe('KeyAuth imports', () => {
  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);

  const db = () => testApp.database.db;

  const upload = (
    applicationId: number,
    kind: 'users' | 'keys',
    file: string,
    contentType = 'application/octet-stream',
  ) =>
    testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${applicationId}/imports?source=keyauth&kind=${kind}`,
      headers: { ...owner.headers, 'content-type': contentType },
      payload: Buffer.from(file),
    });

  const preview = async (applicationId: number, kind: 'users' | 'keys', file: string) => {
    const response = await upload(applicationId, kind, file);
    expect(response.statusCode, response.body).toBe(201);
    return importProgressSchema.parse(response.json());
  };

  const start = (applicationId: number, importId: string, levelPlans: Record<string, string>) =>
    testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${applicationId}/imports/${importId}/start`,
      headers: owner.headers,
      payload: { levelPlans },
    });

  const progress = async (applicationId: number, importId: string) => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/applications/${applicationId}/imports/${importId}`,
      headers: owner.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return importProgressSchema.parse(response.json());
  };

  const finished = async (applicationId: number, importId: string) => {
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const current = await progress(applicationId, importId);
      if (current.status !== 'running') return current;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('import did not finish');
  };

  const setUpApplication = async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const plan = await createPlanViaApi(testApp.app, owner, application.id, { durationDays: 30 });
    return { application, plan };
  };

  it('previews a users file: counts, conflicts and unreadable rows by row number, nothing written', async () => {
    const { application } = await setUpApplication();
    await insertAppUser(db(), application.id, { username: 'dave' });
    const previewed = await preview(application.id, 'users', panelUsersFile('dave'));
    expect(previewed).toMatchObject({
      source: 'keyauth',
      kind: 'users',
      format: 'panel-json',
      status: 'previewed',
      totalRows: 6,
      readableRows: 4,
      conflictRows: 1,
      unreadableRows: 2,
      doneRows: 0,
      levels: ['default'],
    });
    expect(previewed.conflicts).toEqual([
      { rowNumber: 4, reason: expect.stringContaining("'dave'") },
    ]);
    expect(previewed.unreadable.map((row) => row.rowNumber)).toEqual([5, 6]);
    expect(previewed.unreadable[1]!.reason).toContain('duplicate of row 1');
    const users = await db()
      .select()
      .from(appUsers)
      .where(eq(appUsers.applicationId, application.id));
    expect(users.map((user) => user.username)).toEqual(['dave']);
    // Kept rows are sealed: neither a hash nor a username is readable in the table.
    const kept = await db().select().from(importRows).where(eq(importRows.importId, previewed.id));
    expect(kept).toHaveLength(4);
    for (const row of kept) {
      expect(row.data).toMatch(/^v1\./);
      expect(row.data).not.toContain('$2y$');
      expect(row.data).not.toContain('alice');
    }
  });

  it('refuses an unreadable file with its reason, and a body that is not the raw file', async () => {
    const { application } = await setUpApplication();
    const unreadable = await upload(application.id, 'users', '{"nothing": []}');
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json().message).toContain('KeyAuth users export');
    const asJson = await upload(application.id, 'users', '{}', 'application/json');
    expect(asJson.statusCode).toBe(415);
  });

  it('imports users: bcrypt kept, banned inactive, HWID bound, mapped level granted, conflicts skipped; a bcrypt user logs in and is rehashed', async () => {
    const { application, plan } = await setUpApplication();
    const dave = await insertAppUser(db(), application.id, { username: 'dave' });
    const previewed = await preview(application.id, 'users', panelUsersFile('dave'));

    const unknownLevel = await start(application.id, previewed.id, { gold: plan.id });
    expect(unknownLevel.statusCode).toBe(400);

    const started = await start(application.id, previewed.id, { default: plan.id });
    expect(started.statusCode, started.body).toBe(202);
    expect(importProgressSchema.parse(started.json()).levelPlans).toEqual({ default: plan.id });
    const done = await finished(application.id, previewed.id);
    expect(done).toMatchObject({ status: 'done', doneRows: 4, createdRows: 3, skippedRows: 1 });
    expect(done.finishedAt).not.toBeNull();

    const users = await db()
      .select()
      .from(appUsers)
      .where(eq(appUsers.applicationId, application.id));
    const byName = new Map(users.map((user) => [user.username, user]));
    expect([...byName.keys()].sort()).toEqual(['alice', 'bob', 'carol', 'dave']);
    expect(byName.get('dave')!.passwordHash).toBe(dave.passwordHash);
    expect(byName.get('alice')!.passwordHash).toMatch(/^\$2y\$04\$/);
    expect(byName.get('alice')!.expiresAt).toEqual(new Date(inAYear * 1000));
    expect(byName.get('alice')).toMatchObject({ hwid: 'HW-ALICE', deviceCount: 1, isActive: true });
    expect(byName.get('bob')).toMatchObject({
      passwordHash: UNUSABLE_PASSWORD_HASH,
      email: null,
      expiresAt: null,
    });
    expect(byName.get('carol')!.isActive).toBe(false);
    const devices = await db()
      .select()
      .from(appUserDevices)
      .where(eq(appUserDevices.appUserId, byName.get('alice')!.id));
    expect(devices.map((device) => device.hwid)).toEqual(['HW-ALICE']);
    const granted = await db()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.applicationId, application.id));
    expect(
      granted.map((row) => [row.appUserId, row.planId, row.expiresAt?.getTime()]).sort(),
    ).toEqual(
      [
        [byName.get('alice')!.id, plan.id, inAYear * 1000],
        [byName.get('carol')!.id, plan.id, lastYear * 1000],
      ].sort(),
    );

    const login = async (username: string, password: string) => {
      const response = await callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username, password, version: application.version, hwid: 'HW-ALICE' },
      });
      return clientOutcome(clientAuthResponseSchema, response);
    };
    expect((await login('alice', PASSWORD)).code).toBe('OK');
    const [alice] = await db()
      .select()
      .from(appUsers)
      .where(eq(appUsers.id, byName.get('alice')!.id));
    expect(alice!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await login('bob', '!imported-without-password')).code).toBe('INVALID_CREDENTIALS');

    // A second start of a done import answers it as it is and writes nothing twice.
    const again = await start(application.id, previewed.id, { default: plan.id });
    expect(again.statusCode).toBe(202);
    expect(importProgressSchema.parse(again.json())).toMatchObject({
      status: 'done',
      createdRows: 3,
    });
    const after = await db()
      .select()
      .from(appUsers)
      .where(eq(appUsers.applicationId, application.id));
    expect(after).toHaveLength(4);
  });

  it('imports keys with their status, plan and user; every level needs a plan; an existing key is a conflict', async () => {
    const { application, plan } = await setUpApplication();
    const other = await createPlanViaApi(testApp.app, owner, application.id);
    const user = await insertAppUser(db(), application.id, { username: 'erin' });
    const [existing] = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: plan.id,
    });
    const file = sellerKeysFile([
      { key: 'KEYAUTH-AAAA-0001', level: '1', status: 'Not Used' },
      { key: 'KEYAUTH-BBBB-0002', level: '2', status: 'Used', usedby: 'erin' },
      { key: 'KEYAUTH-CCCC-0003', level: '1', status: 'Banned', banned: 'resold' },
      { key: existing!.key, level: '1', status: 'Not Used' },
    ]);
    const previewed = await preview(application.id, 'keys', file);
    expect(previewed).toMatchObject({
      format: 'seller-api-json',
      readableRows: 4,
      conflictRows: 1,
      levels: ['1', '2'],
    });
    expect(previewed.conflicts[0]!.rowNumber).toBe(4);
    expect(JSON.stringify(previewed)).not.toContain(existing!.key);

    const missing = await start(application.id, previewed.id, { '1': plan.id });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain("'2'");
    const foreignPlan = await start(application.id, previewed.id, {
      '1': plan.id,
      '2': crypto.randomUUID(),
    });
    expect(foreignPlan.statusCode).toBe(400);

    expect(
      (await start(application.id, previewed.id, { '1': plan.id, '2': other.id })).statusCode,
    ).toBe(202);
    expect(await finished(application.id, previewed.id)).toMatchObject({
      status: 'done',
      createdRows: 3,
      skippedRows: 1,
    });

    const keys = await db()
      .select()
      .from(licenseKeys)
      .where(eq(licenseKeys.applicationId, application.id));
    expect(keys).toHaveLength(4);
    const byNote = keys
      .filter((key) => key.note === 'from keyauth')
      .sort((a, b) => a.keySuffix.localeCompare(b.keySuffix));
    expect(byNote.map((key) => [key.keySuffix, key.state, key.planId])).toEqual([
      ['0001', 'unused', plan.id],
      ['0002', 'used', other.id],
      ['0003', 'banned', plan.id],
    ]);
    expect(byNote[1]).toMatchObject({
      usedByUserId: user.id,
      wasUsed: true,
      usedAt: new Date((lastYear + 60) * 1000),
    });
    expect(byNote[2]).toMatchObject({ bannedReason: 'resold', usedByUserId: null });
    expect(byNote[0]!.createdAt).toEqual(new Date(lastYear * 1000));
    for (const key of byNote) expect(key.keySealed).not.toContain('KEYAUTH');

    // The key is redeemable by its text through the client API's lookup (its digest).
    const reveal = await testApp.app.inject({
      method: 'GET',
      url: `/api/applications/${application.id}/licenses/${byNote[0]!.id}/key`,
      headers: owner.headers,
    });
    expect(reveal.json()).toEqual({ key: 'KEYAUTH-AAAA-0001' });
  });

  it('resumes a failed import with the rows not done, and never duplicates a row done twice', async () => {
    const { application, plan } = await setUpApplication();
    const file = sellerKeysFile(
      [1, 2, 3, 4, 5].map((number) => ({
        key: `RESUME-KEY-000${number}`,
        level: '1',
        status: 'Not Used',
      })),
    );
    const previewed = await preview(application.id, 'keys', file);
    // As if a process died after the batch holding rows 1 and 2 committed: those are done.
    await db()
      .update(importRows)
      .set({ isDone: true })
      .where(and(eq(importRows.importId, previewed.id), eq(importRows.rowNumber, 1)));
    await db()
      .update(importRows)
      .set({ isDone: true })
      .where(and(eq(importRows.importId, previewed.id), eq(importRows.rowNumber, 2)));
    await db()
      .update(imports)
      .set({ status: 'failed', error: 'boom' })
      .where(eq(imports.id, previewed.id));
    expect((await progress(application.id, previewed.id)).error).toBe('boom');

    expect((await start(application.id, previewed.id, { '1': plan.id })).statusCode).toBe(202);
    expect(await finished(application.id, previewed.id)).toMatchObject({
      status: 'done',
      createdRows: 3,
      error: null,
    });
    const countKeys = async () =>
      (await db().select().from(licenseKeys).where(eq(licenseKeys.applicationId, application.id)))
        .length;
    expect(await countKeys()).toBe(3);

    // Every row again (a batch that wrote its keys but died before marking them): no duplicates.
    await db()
      .update(importRows)
      .set({ isDone: false })
      .where(eq(importRows.importId, previewed.id));
    await db()
      .update(imports)
      .set({ status: 'running', updatedAt: new Date() })
      .where(eq(imports.id, previewed.id));
    // Running and recently advanced: another process has it.
    expect((await start(application.id, previewed.id, { '1': plan.id })).statusCode).toBe(409);
    await db()
      .update(imports)
      .set({ updatedAt: new Date(Date.now() - 120_000) })
      .where(eq(imports.id, previewed.id));
    expect((await start(application.id, previewed.id, { '1': plan.id })).statusCode).toBe(202);
    const done = await finished(application.id, previewed.id);
    expect(done.status).toBe('done');
    expect(await countKeys()).toBe(5);
  });

  it('runs through the management API with a token, and refuses a token without the scope', async () => {
    const { application, plan } = await setUpApplication();
    const token = await createApiTokenViaApi(testApp.app, owner);
    const readOnly = await createApiTokenViaApi(testApp.app, owner, { scopes: ['users:read'] });
    const file = sellerKeysFile([{ key: 'MANAGED-KEY-0001', level: '3', status: 'Not Used' }]);
    const call = (
      tokenText: string,
      method: 'GET' | 'POST',
      path: string,
      payload?: unknown,
      contentType?: string,
    ) =>
      testApp.app.inject({
        method,
        url: `/api/manage/v1/applications/${application.id}${path}`,
        headers: {
          authorization: `Bearer ${tokenText}`,
          ...(contentType ? { 'content-type': contentType } : {}),
        },
        ...(payload === undefined ? {} : { payload: payload as string }),
      });

    const refused = await call(
      readOnly.token,
      'POST',
      '/imports?source=keyauth&kind=keys',
      Buffer.from(file),
      'application/octet-stream',
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('SCOPE_MISSING');
    // users:write alone imports users, but a keys file mints keys: licenses:write too.
    const usersOnly = await createApiTokenViaApi(testApp.app, owner, {
      scopes: ['users:read', 'users:write'],
    });
    const keysWithoutScope = await call(
      usersOnly.token,
      'POST',
      '/imports?source=keyauth&kind=keys',
      Buffer.from(file),
      'application/octet-stream',
    );
    expect(keysWithoutScope.statusCode).toBe(403);
    expect(keysWithoutScope.json()).toMatchObject({
      code: 'SCOPE_MISSING',
      scope: 'licenses:write',
    });

    const previewed = await call(
      token.token,
      'POST',
      '/imports?source=keyauth&kind=keys',
      Buffer.from(file),
      'application/octet-stream',
    );
    expect(previewed.statusCode, previewed.body).toBe(201);
    const { id } = importProgressSchema.parse(previewed.json());
    const startedWithoutScope = await call(usersOnly.token, 'POST', `/imports/${id}/start`, {
      levelPlans: { '3': plan.id },
    });
    expect(startedWithoutScope.statusCode).toBe(403);
    expect(startedWithoutScope.json()).toMatchObject({ scope: 'licenses:write' });
    const started = await call(token.token, 'POST', `/imports/${id}/start`, {
      levelPlans: { '3': plan.id },
    });
    expect(started.statusCode, started.body).toBe(202);
    let current = importProgressSchema.parse(
      (await call(readOnly.token, 'GET', `/imports/${id}`)).json(),
    );
    for (let attempt = 0; current.status === 'running' && attempt < 400; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      current = importProgressSchema.parse(
        (await call(readOnly.token, 'GET', `/imports/${id}`)).json(),
      );
    }
    expect(current).toMatchObject({ status: 'done', createdRows: 1 });
    // Both writes are in the audit trail; the uploaded file (a key) is not, only its size.
    const audited = await db()
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.actorTokenId, token.id));
    expect(audited.map((entry) => entry.action).sort()).toEqual([
      'import_previewed',
      'import_started',
    ]);
    expect(JSON.stringify(audited)).not.toContain('MANAGED-KEY');
    expect(JSON.stringify(audited)).toContain(`"fileBytes":${Buffer.byteLength(file)}`);
  });
});
