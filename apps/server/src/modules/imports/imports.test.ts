import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashSync } from '@node-rs/bcrypt';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  applicationListSchema,
  clientAuthResponseSchema,
  IMPORT_KIND_NEEDS_CONSOLE,
  importProgressSchema,
  KEYAUTH_NAME_TAKEN,
  type ImportKind,
} from '@latchkey/contracts';
import {
  appFiles,
  applications,
  appUserDevices,
  appUsers,
  appUserVariables,
  appVariables,
  auditEntries,
  blacklistEntries,
  importRows,
  imports,
  licenseKeys,
  plans,
  subscriptions,
} from '../../db/schema/index.ts';
import { unsealKeyauthSecret } from '../applications/index.ts';
import {
  callClientApi,
  createApiTokenViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
  insertAppUser,
  insertBlacklistEntry,
  insertClientApplication,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { IMPORTED_BAN_REASON } from './write-imported-bans.ts';
import { KEYAUTH_COMPATIBILITY_ON } from './write-imported-keyauth-settings.ts';
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
    kind: ImportKind,
    file: string,
    contentType = 'application/octet-stream',
  ) =>
    testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${applicationId}/imports?source=keyauth&kind=${kind}`,
      headers: { ...owner.headers, 'content-type': contentType },
      payload: Buffer.from(file),
    });

  const preview = async (applicationId: number, kind: ImportKind, file: string) => {
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

    // KeyAuth banned carol: disabled, and her username blacklisted with KeyAuth's reason.
    const bans = await db()
      .select()
      .from(blacklistEntries)
      .where(eq(blacklistEntries.applicationId, application.id));
    expect(bans.map((entry) => [entry.type, entry.value, entry.reason, entry.isActive])).toEqual([
      ['username', 'carol', 'Banned in KeyAuth: chargeback', true],
    ]);
    expect((await login('carol', 'other')).code).toBe('BLACKLISTED');
    await db().delete(blacklistEntries).where(eq(blacklistEntries.id, bans[0]!.id));
    expect((await login('carol', 'other')).code).toBe('ACCOUNT_DISABLED');

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
    // Each plan keeps the KeyAuth level it was mapped from.
    const levelled = await db().select().from(plans).where(eq(plans.applicationId, application.id));
    expect(levelled.map((row) => [row.id, row.entitlements]).sort()).toEqual(
      [
        [plan.id, ['LEVEL_1']],
        [other.id, ['LEVEL_2']],
      ].sort(),
    );
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

  const planNamesOf = async (applicationId: number) =>
    (await db().select().from(plans).where(eq(plans.applicationId, applicationId)))
      .map((plan) => plan.name)
      .sort();

  /** The seller API's fetchallsubs answer. */
  const subscriptionsFile = JSON.stringify({
    success: true,
    message: 'Successfully retrieved subscriptions',
    subs: [
      { name: 'default', level: '1' },
      { name: 'Premium', level: '2' },
      { name: 'Extra', level: '2' },
      { name: 'VIP', level: '3' },
    ],
  });

  it('imports subscriptions as one plan per level; again, it makes none; later imports are offered them', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const vip = await createPlanViaApi(testApp.app, owner, application.id, { name: 'vip' });
    const previewed = await preview(application.id, 'subscriptions', subscriptionsFile);
    expect(previewed).toMatchObject({
      kind: 'subscriptions',
      format: 'seller-api-json',
      readableRows: 4,
      conflictRows: 2,
      levels: ['1', '2', '3'],
      levelPlans: { '3': vip.id },
      filesToUpload: [],
      keyauthSettings: null,
    });
    expect(previewed.conflicts).toEqual([
      { rowNumber: 3, reason: "row 3: level '2' is one plan with row 2" },
      {
        rowNumber: 4,
        reason: "row 4: the application already has a plan named 'vip': level '3' leads to it",
      },
    ]);
    expect(await planNamesOf(application.id)).toEqual(['vip']);

    expect((await start(application.id, previewed.id, {})).statusCode).toBe(202);
    const done = await finished(application.id, previewed.id);
    expect(done).toMatchObject({ status: 'done', createdRows: 2, skippedRows: 2 });
    const made = await db().select().from(plans).where(eq(plans.applicationId, application.id));
    const planId = (name: string) => made.find((plan) => plan.name === name)!.id;
    // Lifetime, each with its level as the entitlement the KeyAuth-compatible API answers.
    expect(made.map((plan) => [plan.name, plan.durationDays, plan.entitlements]).sort()).toEqual([
      ['Premium', null, ['LEVEL_2']],
      ['default', null, ['LEVEL_1']],
      ['vip', null, ['LEVEL_3']],
    ]);
    // Every level, and every subscription name, leads to its plan.
    expect(done.levelPlans).toEqual({
      '1': planId('default'),
      '2': planId('Premium'),
      '3': vip.id,
      default: planId('default'),
      Premium: planId('Premium'),
      Extra: planId('Premium'),
      VIP: vip.id,
    });

    // The same file again: every level already has its plan, and no plan is made.
    const again = await preview(application.id, 'subscriptions', subscriptionsFile);
    expect(again).toMatchObject({
      conflictRows: 4,
      levelPlans: { '1': planId('default'), '2': planId('Premium'), '3': vip.id },
    });
    expect((await start(application.id, again.id, again.levelPlans)).statusCode).toBe(202);
    expect(await finished(application.id, again.id)).toMatchObject({ createdRows: 0 });
    // A batch that runs twice (its rows not marked done) makes no plan twice either.
    await db().update(importRows).set({ isDone: false }).where(eq(importRows.importId, again.id));
    await db().update(imports).set({ status: 'failed' }).where(eq(imports.id, again.id));
    expect((await start(application.id, again.id, again.levelPlans)).statusCode).toBe(202);
    expect(await finished(application.id, again.id)).toMatchObject({ status: 'done' });
    expect(await planNamesOf(application.id)).toEqual(['Premium', 'default', 'vip']);

    // A users file names its subscriptions ("default"): it is offered that plan.
    const users = await preview(application.id, 'users', panelUsersFile('nobody'));
    expect(users.levelPlans).toEqual({ default: planId('default') });
    // Keys take their length from their plan: a lifetime plan is not offered for 30-day keys...
    const keysFile = sellerKeysFile([{ key: 'LEVEL-TWO-0001', level: '2', status: 'Not Used' }]);
    expect((await preview(application.id, 'keys', keysFile)).levelPlans).toEqual({});
    // ...and is, once the plan lasts as long as they do.
    await db()
      .update(plans)
      .set({ durationDays: 30 })
      .where(eq(plans.id, planId('Premium')));
    expect((await preview(application.id, 'keys', keysFile)).levelPlans).toEqual({
      '2': planId('Premium'),
    });
  });

  it("imports variables and users' variables; a name already held is skipped, never overwritten", async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    await db()
      .insert(appVariables)
      .values({ applicationId: application.id, name: 'motd', value: 'keep' });
    const mak = await insertAppUser(db(), application.id, { username: 'mak' });
    await db()
      .insert(appUserVariables)
      .values({ appUserId: mak.id, applicationId: application.id, name: 'held', value: 'keep' });

    const variables = await preview(
      application.id,
      'variables',
      'id,varid,msg,app,authed\n1,kill_switch," off",x,0\n2,motd,replaced,x,1\n',
    );
    expect(variables).toMatchObject({ format: 'table-csv', readableRows: 2, conflictRows: 1 });
    expect(variables.conflicts[0]!.reason).toBe(
      "row 3: the application already has a variable named 'motd'",
    );
    expect((await start(application.id, variables.id, {})).statusCode).toBe(202);
    expect(await finished(application.id, variables.id)).toMatchObject({ createdRows: 1 });
    const held = await db()
      .select()
      .from(appVariables)
      .where(eq(appVariables.applicationId, application.id));
    expect(held.map((row) => [row.name, row.value, row.requiresSession]).sort()).toEqual([
      ['kill_switch', ' off', false],
      ['motd', 'keep', true],
    ]);

    const userVariables = await preview(
      application.id,
      'user-variables',
      JSON.stringify({
        success: true,
        vars: [
          { name: 'tier', data: 'gold', user: 'mak' },
          { name: 'held', data: 'replaced', user: 'mak' },
          { name: 'tier', data: 'x', user: 'ghost' },
        ],
      }),
    );
    expect(userVariables).toMatchObject({ readableRows: 3, conflictRows: 2 });
    expect(userVariables.conflicts.map((problem) => problem.reason)).toEqual([
      "row 2: user 'mak' already has a variable named 'held'",
      "row 3: the application has no user named 'ghost' (import the users first)",
    ]);
    expect((await start(application.id, userVariables.id, {})).statusCode).toBe(202);
    expect(await finished(application.id, userVariables.id)).toMatchObject({
      createdRows: 1,
      skippedRows: 2,
    });
    const makVariables = await db()
      .select()
      .from(appUserVariables)
      .where(eq(appUserVariables.appUserId, mak.id));
    expect(makVariables.map((row) => [row.name, row.value, row.isReadOnly]).sort()).toEqual([
      ['held', 'keep', false],
      ['tier', 'gold', false],
    ]);
  });

  it('imports the blacklist into the application; a value already blocked is skipped', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    await insertBlacklistEntry(db(), { ownerAccountId: owner.accountId, value: '1.1.1.1' });
    const previewed = await preview(
      application.id,
      'blacklist',
      JSON.stringify({
        success: true,
        message: 'Successfully retrieved blacklists',
        blacklists: [
          { hwid: null, ip: '1.1.1.1', type: 'ip' },
          { hwid: 'HW-BANNED', ip: null, type: 'hwid' },
          { hwid: null, ip: '2001:DB8::1', type: 'ip' },
        ],
      }),
    );
    expect(previewed).toMatchObject({ readableRows: 3, conflictRows: 1 });
    expect(previewed.conflicts[0]!.reason).toBe(
      "row 1: the blacklist already blocks the IP '1.1.1.1'",
    );
    expect((await start(application.id, previewed.id, {})).statusCode).toBe(202);
    expect(await finished(application.id, previewed.id)).toMatchObject({ createdRows: 2 });
    const entries = await db()
      .select()
      .from(blacklistEntries)
      .where(eq(blacklistEntries.applicationId, application.id));
    expect(entries.map((entry) => [entry.type, entry.value, entry.reason]).sort()).toEqual([
      ['hwid', 'HW-BANNED', IMPORTED_BAN_REASON],
      ['ip', '2001:db8::1', IMPORTED_BAN_REASON],
    ]);

    // The client API refuses the blacklisted HWID at login.
    const user = await insertAppUser(db(), application.id, {
      username: 'frank',
      passwordHash: bcryptHash(PASSWORD),
    });
    const response = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: {
        username: user.username,
        password: PASSWORD,
        version: application.version,
        hwid: 'HW-BANNED',
      },
    });
    expect(clientOutcome(clientAuthResponseSchema, response).code).toBe('BLACKLISTED');
  });

  it('lists files to upload again: nothing is fetched from their URLs, nothing is made', async () => {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.end('bytes');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const application = await insertClientApplication(testApp, owner.accountId);
      const previewed = await preview(
        application.id,
        'files',
        JSON.stringify({
          success: true,
          message: 'Successfully retrieved files',
          files: [
            { id: '891188', url: `${base}/private/loader.exe` },
            { id: '650285', url: `${base}/latest/update.zip`, name: 'update.zip', authed: '0' },
          ],
        }),
      );
      expect(previewed).toMatchObject({ kind: 'files', readableRows: 2, conflictRows: 2 });
      expect(previewed.filesToUpload).toEqual([
        { rowNumber: 1, keyauthFileId: '891188', name: 'loader.exe', requiresSession: true },
        { rowNumber: 2, keyauthFileId: '650285', name: 'update.zip', requiresSession: false },
      ]);
      expect(previewed.conflicts[0]!.reason).toContain("upload 'loader.exe' (KeyAuth file 891188)");
      expect(JSON.stringify(previewed)).not.toContain(base);

      expect((await start(application.id, previewed.id, {})).statusCode).toBe(202);
      const done = await finished(application.id, previewed.id);
      expect(done).toMatchObject({ status: 'done', createdRows: 0, skippedRows: 2 });
      expect(done.filesToUpload).toHaveLength(2);
      expect(
        await db().select().from(appFiles).where(eq(appFiles.applicationId, application.id)),
      ).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const KEYAUTH_SECRET = 'db40d586f4b189e04e5c18c3c94b7e72221be3f6551995adc05236948d1762bc';
  const appsTable = (secret: string) =>
    'id,owner,name,secret,ownerid,sellerkey\n' +
    `7,seller1,Loader,${secret},hTmfnZOYPe,0123456789abcdef0123456789abcdef\n`;
  const keyauthColumnsOf = async (applicationId: number) => {
    const [row] = await db().select().from(applications).where(eq(applications.id, applicationId));
    return {
      compatibility: row!.keyauthCompatibility,
      ownerId: row!.keyauthOwnerId,
      name: row!.keyauthName,
      secret:
        row!.keyauthSecretSealed &&
        unsealKeyauthSecret(row!.keyauthSecretSealed, testApp.config.serverSecret),
    };
  };

  it("writes the application's KeyAuth owner id, name and secret, sealed, compatibility left off", async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const previewed = await preview(application.id, 'application', appsTable(KEYAUTH_SECRET));
    expect(previewed).toMatchObject({
      kind: 'application',
      format: 'table-csv',
      totalRows: 1,
      readableRows: 1,
      keyauthSettings: {
        ownerId: 'hTmfnZOYPe',
        name: 'Loader',
        hasSecret: true,
        outcome: 'pending',
        problem: null,
      },
    });
    const stored = await db()
      .select()
      .from(importRows)
      .where(eq(importRows.importId, previewed.id));
    expect(JSON.stringify(stored)).not.toContain(KEYAUTH_SECRET);
    expect(JSON.stringify(stored)).not.toContain('0123456789abcdef');

    expect((await start(application.id, previewed.id, {})).statusCode).toBe(202);
    const done = await finished(application.id, previewed.id);
    expect(done).toMatchObject({
      status: 'done',
      doneRows: 1,
      createdRows: 1,
      keyauthSettings: { outcome: 'written', problem: null },
    });
    expect(await keyauthColumnsOf(application.id)).toEqual({
      compatibility: false,
      ownerId: 'hTmfnZOYPe',
      name: 'Loader',
      secret: KEYAUTH_SECRET,
    });
    // The applications module reads it back: the owner sees what the import wrote.
    const listed = await testApp.app.inject({
      method: 'GET',
      url: '/api/applications',
      headers: owner.headers,
    });
    const shown = applicationListSchema
      .parse(listed.json())
      .find((listedApplication) => listedApplication.id === application.id);
    expect(shown).toMatchObject({
      keyauthCompatibility: false,
      keyauthOwnerId: 'hTmfnZOYPe',
      keyauthName: 'Loader',
      keyauthSecret: KEYAUTH_SECRET,
    });
    const audited = await db()
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.applicationId, application.id),
          eq(auditEntries.action, 'application_updated'),
        ),
      );
    expect(audited).toHaveLength(1);
    expect(JSON.stringify(audited)).not.toContain(KEYAUTH_SECRET);

    // Another application of any owner with that owner id and name: reported, not a crash.
    const second = await insertClientApplication(testApp, owner.accountId);
    const clash = await preview(second.id, 'application', appsTable('a'.repeat(64)));
    expect(clash.keyauthSettings).toMatchObject({
      outcome: 'pending',
      problem: KEYAUTH_NAME_TAKEN,
    });
    expect((await start(second.id, clash.id, {})).statusCode).toBe(202);
    expect(await finished(second.id, clash.id)).toMatchObject({
      status: 'done',
      createdRows: 0,
      skippedRows: 1,
      keyauthSettings: { outcome: 'refused', problem: KEYAUTH_NAME_TAKEN },
    });
    expect(await keyauthColumnsOf(second.id)).toEqual({
      compatibility: false,
      ownerId: null,
      name: null,
      secret: null,
    });
  });

  it('takes the secret from a users export; never changes settings while compatibility is on', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const usersFile = (secret: string) =>
      JSON.stringify({
        success: true,
        users: [{ username: `u${secret.slice(0, 6)}`, password: null, app: secret }],
      });
    const first = await preview(application.id, 'users', usersFile(KEYAUTH_SECRET));
    expect(first.keyauthSettings).toEqual({
      ownerId: null,
      name: null,
      hasSecret: true,
      outcome: 'pending',
      problem: null,
    });
    expect(JSON.stringify(first)).not.toContain(KEYAUTH_SECRET);
    expect((await start(application.id, first.id, {})).statusCode).toBe(202);
    expect(await finished(application.id, first.id)).toMatchObject({
      createdRows: 1,
      keyauthSettings: { outcome: 'written' },
    });
    expect(await keyauthColumnsOf(application.id)).toMatchObject({
      ownerId: null,
      secret: KEYAUTH_SECRET,
    });

    // The owner turns compatibility on with its owner id and name; the secret stays.
    const turnedOn = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}`,
      headers: owner.headers,
      payload: { keyauthCompatibility: true, keyauthOwnerId: 'Zx9Zx9Zx9Z', keyauthName: 'Tool' },
    });
    expect(turnedOn.statusCode, turnedOn.body).toBe(200);
    const same = await preview(application.id, 'users', usersFile(KEYAUTH_SECRET));
    expect((await start(application.id, same.id, {})).statusCode).toBe(202);
    expect((await finished(application.id, same.id)).keyauthSettings).toMatchObject({
      outcome: 'unchanged',
    });
    const other = 'c'.repeat(64);
    const changed = await preview(application.id, 'users', usersFile(other));
    expect(changed.keyauthSettings).toMatchObject({ problem: KEYAUTH_COMPATIBILITY_ON });
    expect((await start(application.id, changed.id, {})).statusCode).toBe(202);
    expect(await finished(application.id, changed.id)).toMatchObject({
      status: 'done',
      createdRows: 1,
      keyauthSettings: { outcome: 'refused', problem: KEYAUTH_COMPATIBILITY_ON },
    });
    expect(await keyauthColumnsOf(application.id)).toEqual({
      compatibility: true,
      ownerId: 'Zx9Zx9Zx9Z',
      name: 'Tool',
      secret: KEYAUTH_SECRET,
    });
  });

  it('imports only users and keys with a management API token, even one started in the console', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const token = await createApiTokenViaApi(testApp.app, owner);
    const uploaded = await testApp.app.inject({
      method: 'POST',
      url: `/api/manage/v1/applications/${application.id}/imports?source=keyauth&kind=subscriptions`,
      headers: {
        authorization: `Bearer ${token.token}`,
        'content-type': 'application/octet-stream',
      },
      payload: Buffer.from(subscriptionsFile),
    });
    expect(uploaded.statusCode).toBe(400);
    const previewed = await preview(application.id, 'subscriptions', subscriptionsFile);
    const started = await testApp.app.inject({
      method: 'POST',
      url: `/api/manage/v1/applications/${application.id}/imports/${previewed.id}/start`,
      headers: { authorization: `Bearer ${token.token}` },
      payload: { levelPlans: {} },
    });
    expect(started.statusCode).toBe(403);
    expect(started.json()).toMatchObject({ code: 'FORBIDDEN', detail: IMPORT_KIND_NEEDS_CONSOLE });
    expect(await planNamesOf(application.id)).toEqual([]);
  });
});
