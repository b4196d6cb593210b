import { count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appUserSchema,
  auditEntryListSchema,
  problemSchema,
  subscriptionListSchema,
  type AuditAction,
  type AuditEntry,
  type CreatedApiToken,
  type Application,
} from '@latchkey/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { appUsers, auditEntries } from '../db/schema/index.ts';
import {
  createApiTokenViaApi,
  createApplicationViaApi,
  createAppUserViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
  insertWebhookDelivery,
} from '../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../test/suite-test-app.ts';
import { signInOwner } from '../../test/test-app.ts';

const OWNER_ADDRESS = '198.51.100.7';
const SHOP_ADDRESS = '203.0.113.9';

/** The JSON text `{"x":{"x":…1…}}`, `depth` objects deep (built as text: stringify would overflow). */
const nestedText = (depth: number) => `${'{"x":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** A body's JSON text with one more field whose value is nested `depth` objects deep. */
const withNested = (body: Record<string, unknown>, depth: number) =>
  `${JSON.stringify(body).slice(0, -1)},"note":${nestedText(depth)}}`;
const json = { 'content-type': 'application/json' };

describe('the audit trail of owner writes', () => {
  let application: Application;
  let shop: CreatedApiToken;

  const testApp = startTestAppForSuite();
  // The first account of the site is its owner, who also reads the whole trail.
  const owner = signInOwnerForSuite(testApp);

  beforeAll(async () => {
    application = await createApplicationViaApi(testApp.app, owner, { name: 'Audited App' });
    shop = await createApiTokenViaApi(testApp.app, owner, { name: 'Audit shop' });
  });

  const db = () => testApp.database.db;

  const consoleCall = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    testApp.app.inject({
      method,
      url,
      headers: owner.headers,
      remoteAddress: OWNER_ADDRESS,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  const manage = (
    method: 'POST' | 'PATCH' | 'DELETE',
    url: string,
    options: { payload?: unknown; headers?: Record<string, string> } = {},
  ) =>
    testApp.app.inject({
      method,
      url: `/api/manage/v1${url}`,
      remoteAddress: SHOP_ADDRESS,
      headers: { authorization: `Bearer ${shop.token}`, ...options.headers },
      ...(options.payload === undefined ? {} : { payload: options.payload as string }),
    });

  const trail = async (): Promise<AuditEntry[]> => {
    const response = await testApp.app.inject({
      url: '/api/admin/audit?pageSize=200',
      headers: owner.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return auditEntryListSchema.parse(response.json());
  };
  const entryCount = async () => {
    const [row] = await db().select({ value: count() }).from(auditEntries);
    return row!.value;
  };

  /**
   * Runs one write and answers the one entry it added to the trail (as the admin API reads
   * it), after checking the write succeeded and that it added exactly one.
   */
  const auditedWrite = async (
    write: () => Promise<LightMyRequestResponse>,
    expectedStatus: number,
  ): Promise<{ entry: AuditEntry; body: unknown }> => {
    const before = new Set((await trail()).map((entry) => entry.id));
    const response = await write();
    expect(response.statusCode, response.body).toBe(expectedStatus);
    const added = (await trail()).filter((entry) => !before.has(entry.id));
    expect(added, JSON.stringify(added)).toHaveLength(1);
    return { entry: added[0]!, body: response.body ? response.json() : null };
  };

  const expectOwnerEntry = (
    entry: AuditEntry,
    expected: {
      action: AuditAction;
      applicationId: number | null;
      target: { kind: string; id: string | number };
    },
  ) => {
    expect(entry.action).toBe(expected.action);
    expect(entry.actor).toEqual({ id: owner.accountId, email: owner.account.email });
    expect(entry.actorToken).toBeUndefined();
    expect(entry.ipAddress).toBe(OWNER_ADDRESS);
    expect(entry.ownerWrite?.application?.id ?? null).toBe(expected.applicationId);
    expect(entry.ownerWrite?.target).toMatchObject({
      kind: expected.target.kind,
      id: String(expected.target.id),
    });
  };

  it('writes one entry with the actor, the target and the change for every owner write', async () => {
    const secretWords = ['never-in-the-trail', 'hidden-path-part'];
    const created = await auditedWrite(
      () => consoleCall('POST', '/api/applications', { name: 'Trail App', description: 'First' }),
      201,
    );
    const app = created.body as Application;
    expectOwnerEntry(created.entry, {
      action: 'application_created',
      applicationId: app.id,
      target: { kind: 'application', id: app.id },
    });
    expect(created.entry.ownerWrite?.target.label).toBe('Trail App');
    expect(created.entry.ownerWrite?.application?.name).toBe('Trail App');

    const renamed = await auditedWrite(
      () =>
        consoleCall('PUT', `/api/applications/${app.id}`, { name: 'Renamed App', version: '2.0' }),
      200,
    );
    expectOwnerEntry(renamed.entry, {
      action: 'application_updated',
      applicationId: app.id,
      target: { kind: 'application', id: app.id },
    });
    expect(renamed.entry.ownerWrite?.change).toEqual({ name: 'Renamed App', version: '2.0' });

    const userCreated = await auditedWrite(
      () =>
        consoleCall('POST', `/api/applications/${app.id}/users`, {
          username: 'trail-user',
          password: 'never-in-the-trail',
          hwid: 'HW-TRAIL-1',
        }),
      201,
    );
    const user = appUserSchema.parse(userCreated.body);
    const userTarget = { kind: 'end_user', id: user.id };
    expectOwnerEntry(userCreated.entry, {
      action: 'end_user_created',
      applicationId: app.id,
      target: userTarget,
    });
    expect(userCreated.entry.ownerWrite?.target.label).toBe('trail-user');
    expect(userCreated.entry.ownerWrite?.change).toMatchObject({
      username: 'trail-user',
      password: '[redacted]',
    });

    const userUrl = `/api/applications/${app.id}/users/${user.id}`;
    const edited = await auditedWrite(
      () =>
        consoleCall('PUT', userUrl, {
          password: 'never-in-the-trail-2',
          expiresAt: '2031-01-01T00:00:00.000Z',
        }),
      200,
    );
    expectOwnerEntry(edited.entry, {
      action: 'end_user_updated',
      applicationId: app.id,
      target: userTarget,
    });
    expect(edited.entry.ownerWrite?.change).toEqual({
      password: '[redacted]',
      expiresAt: '2031-01-01T00:00:00.000Z',
    });

    for (const [path, action] of [
      ['pause', 'end_user_paused'],
      ['unpause', 'end_user_unpaused'],
      ['reset-hwid', 'end_user_hwid_reset'],
    ] as const) {
      const { entry } = await auditedWrite(() => consoleCall('POST', `${userUrl}/${path}`), 200);
      expectOwnerEntry(entry, { action, applicationId: app.id, target: userTarget });
    }

    // A device to remove by id, then one to remove with "all".
    for (const hwid of ['HW-TRAIL-2', 'HW-TRAIL-3']) {
      expect((await consoleCall('PUT', userUrl, { hwid })).statusCode).toBe(200);
      const devices = await testApp.app.inject({
        url: `${userUrl}/devices`,
        headers: owner.headers,
      });
      const [device] = devices.json() as { id: string }[];
      const { entry } = await auditedWrite(
        () =>
          consoleCall(
            'DELETE',
            hwid === 'HW-TRAIL-2' ? `${userUrl}/devices/${device!.id}` : `${userUrl}/devices`,
          ),
        200,
      );
      expectOwnerEntry(entry, {
        action: 'end_user_devices_released',
        applicationId: app.id,
        target: userTarget,
      });
      expect(entry.ownerWrite?.change).toMatchObject({ released: 1 });
    }

    const planCreated = await auditedWrite(
      () => consoleCall('POST', `/api/applications/${app.id}/plans`, { name: 'Gold' }),
      201,
    );
    const plan = planCreated.body as { id: string };
    const planTarget = { kind: 'plan', id: plan.id };
    expectOwnerEntry(planCreated.entry, {
      action: 'plan_created',
      applicationId: app.id,
      target: planTarget,
    });
    const planUpdated = await auditedWrite(
      () =>
        consoleCall('PUT', `/api/applications/${app.id}/plans/${plan.id}`, {
          entitlements: ['pro'],
        }),
      200,
    );
    expectOwnerEntry(planUpdated.entry, {
      action: 'plan_updated',
      applicationId: app.id,
      target: planTarget,
    });
    expect(planUpdated.entry.ownerWrite?.change).toEqual({ entitlements: ['pro'] });

    const generated = await auditedWrite(
      () =>
        consoleCall('POST', `/api/applications/${app.id}/licenses`, { planId: plan.id, count: 3 }),
      201,
    );
    expectOwnerEntry(generated.entry, {
      action: 'license_keys_generated',
      applicationId: app.id,
      target: planTarget,
    });
    expect(generated.entry.ownerWrite?.change).toMatchObject({ count: 3 });
    const keys = (generated.body as { keys: { id: string; key: string }[] }).keys;
    secretWords.push(...keys.map((key) => key.key));
    const keyUrl = `/api/applications/${app.id}/licenses/${keys[0]!.id}`;
    const keyTarget = { kind: 'license_key', id: keys[0]!.id };
    const banned = await auditedWrite(
      () => consoleCall('POST', `${keyUrl}/ban`, { reason: 'chargeback' }),
      200,
    );
    expectOwnerEntry(banned.entry, {
      action: 'license_key_banned',
      applicationId: app.id,
      target: keyTarget,
    });
    expect(banned.entry.ownerWrite?.change).toEqual({ reason: 'chargeback' });
    // The key as the list shows it, all but its first group and its last four hidden.
    const bannedKey = keys[0]!.key;
    expect(banned.entry.ownerWrite?.target.label).toBe(
      `${bannedKey.slice(0, 5)}-•••••-•••••-•••••-•${bannedKey.slice(-4)}`,
    );
    const unbanned = await auditedWrite(() => consoleCall('POST', `${keyUrl}/unban`), 200);
    expectOwnerEntry(unbanned.entry, {
      action: 'license_key_unbanned',
      applicationId: app.id,
      target: keyTarget,
    });
    const keyDeleted = await auditedWrite(() => consoleCall('DELETE', keyUrl), 200);
    expectOwnerEntry(keyDeleted.entry, {
      action: 'license_key_deleted',
      applicationId: app.id,
      target: keyTarget,
    });
    const unusedDeleted = await auditedWrite(
      () => consoleCall('POST', `/api/applications/${app.id}/plans/${plan.id}/delete-unused`),
      200,
    );
    expectOwnerEntry(unusedDeleted.entry, {
      action: 'unused_license_keys_deleted',
      applicationId: app.id,
      target: planTarget,
    });
    expect(unusedDeleted.entry.ownerWrite?.change).toEqual({ deleted: 2 });

    const granted = await auditedWrite(
      () => consoleCall('POST', `${userUrl}/subscriptions`, { planId: plan.id }),
      201,
    );
    expectOwnerEntry(granted.entry, {
      action: 'subscription_granted',
      applicationId: app.id,
      target: userTarget,
    });
    expect(granted.entry.ownerWrite?.change).toMatchObject({ planId: plan.id, planName: 'Gold' });
    const [subscription] = subscriptionListSchema.parse(granted.body);
    const subscriptionUrl = `${userUrl}/subscriptions/${subscription!.id}`;
    const extended = await auditedWrite(
      () => consoleCall('PUT', subscriptionUrl, { expiresAt: '2032-01-01T00:00:00.000Z' }),
      200,
    );
    expectOwnerEntry(extended.entry, {
      action: 'subscription_updated',
      applicationId: app.id,
      target: userTarget,
    });
    expect(extended.entry.ownerWrite?.change).toMatchObject({
      planName: 'Gold',
      expiresAt: '2032-01-01T00:00:00.000Z',
    });
    const removed = await auditedWrite(() => consoleCall('DELETE', subscriptionUrl), 200);
    expectOwnerEntry(removed.entry, {
      action: 'subscription_removed',
      applicationId: app.id,
      target: userTarget,
    });

    const planDeleted = await auditedWrite(
      () => consoleCall('DELETE', `/api/applications/${app.id}/plans/${plan.id}`),
      200,
    );
    expectOwnerEntry(planDeleted.entry, {
      action: 'plan_deleted',
      applicationId: app.id,
      target: planTarget,
    });

    const webhookCreated = await auditedWrite(
      () =>
        consoleCall('POST', '/api/webhooks', {
          url: 'https://93.184.215.14/hooks/hidden-path-part',
          events: ['user_login'],
          applicationId: app.id,
        }),
      201,
    );
    const webhook = webhookCreated.body as { id: number; secret: string };
    secretWords.push(webhook.secret);
    const webhookTarget = { kind: 'webhook', id: webhook.id };
    expectOwnerEntry(webhookCreated.entry, {
      action: 'webhook_created',
      applicationId: app.id,
      target: webhookTarget,
    });
    // Only the origin of the URL: a receiver's path often carries its own token.
    expect(webhookCreated.entry.ownerWrite?.target.label).toBe('https://93.184.215.14');
    const webhookUpdated = await auditedWrite(
      () =>
        consoleCall('PUT', `/api/webhooks/${webhook.id}`, {
          secret: 'an own signing secret, never-in-the-trail either',
          isActive: false,
        }),
      200,
    );
    expectOwnerEntry(webhookUpdated.entry, {
      action: 'webhook_updated',
      applicationId: app.id,
      target: webhookTarget,
    });
    expect(webhookUpdated.entry.ownerWrite?.change).toEqual({
      secret: '[redacted]',
      isActive: false,
    });
    const webhookDeleted = await auditedWrite(
      () => consoleCall('DELETE', `/api/webhooks/${webhook.id}`),
      200,
    );
    expectOwnerEntry(webhookDeleted.entry, {
      action: 'webhook_deleted',
      applicationId: app.id,
      target: webhookTarget,
    });

    const blocked = await auditedWrite(
      () =>
        consoleCall('POST', '/api/blacklist', {
          type: 'hwid',
          value: 'HW-BAD',
          reason: 'abuse',
          applicationId: app.id,
        }),
      201,
    );
    const entryId = (blocked.body as { id: number }).id;
    expectOwnerEntry(blocked.entry, {
      action: 'blacklist_entry_created',
      applicationId: app.id,
      target: { kind: 'blacklist_entry', id: entryId },
    });
    expect(blocked.entry.ownerWrite?.target.label).toBe('hwid HW-BAD');
    const unblocked = await auditedWrite(
      () => consoleCall('DELETE', `/api/blacklist/${entryId}`),
      200,
    );
    expectOwnerEntry(unblocked.entry, {
      action: 'blacklist_entry_deleted',
      applicationId: app.id,
      target: { kind: 'blacklist_entry', id: entryId },
    });

    const userDeleted = await auditedWrite(() => consoleCall('DELETE', userUrl), 200);
    expectOwnerEntry(userDeleted.entry, {
      action: 'end_user_deleted',
      applicationId: app.id,
      target: userTarget,
    });
    const appDeleted = await auditedWrite(
      () => consoleCall('DELETE', `/api/applications/${app.id}`),
      200,
    );
    expectOwnerEntry(appDeleted.entry, {
      action: 'application_deleted',
      applicationId: app.id,
      target: { kind: 'application', id: app.id },
    });
    // The name as it was: the trail outlives what it names.
    expect(appDeleted.entry.ownerWrite?.application?.name).toBe('Renamed App');

    const whole = await testApp.app.inject({
      url: '/api/admin/audit?pageSize=200',
      headers: owner.headers,
    });
    for (const word of secretWords) expect(whole.body).not.toContain(word);
  });

  it('writes one entry for the other owner writes: variables, files, imports, retries, samples, code files', async () => {
    const app = application;
    const appUrl = `/api/applications/${app.id}`;
    const expectEntry = (
      entry: AuditEntry,
      action: AuditAction,
      target: { kind: string; id: string | number },
      applicationId: number | null = app.id,
    ) => expectOwnerEntry(entry, { action, applicationId, target });

    // The application's variables: the value may be a secret, so the trail only says it changed.
    const created = await auditedWrite(
      () =>
        consoleCall('POST', `${appUrl}/variables`, {
          name: 'LICENSE_SERVER_KEY',
          value: 'never-in-the-trail',
          requiresSession: true,
        }),
      201,
    );
    const variable = created.body as { id: string };
    expectEntry(created.entry, 'variable_created', { kind: 'variable', id: variable.id });
    expect(created.entry.ownerWrite?.target.label).toBe('LICENSE_SERVER_KEY');
    expect(created.entry.ownerWrite?.change).toMatchObject({ value: '[redacted]' });
    const updated = await auditedWrite(
      () =>
        consoleCall('PUT', `${appUrl}/variables/${variable.id}`, { value: 'never-in-the-trail' }),
      200,
    );
    expectEntry(updated.entry, 'variable_updated', { kind: 'variable', id: variable.id });
    expect(updated.entry.ownerWrite?.change).toEqual({ value: '[redacted]' });
    const deleted = await auditedWrite(
      () => consoleCall('DELETE', `${appUrl}/variables/${variable.id}`),
      200,
    );
    expectEntry(deleted.entry, 'variable_deleted', { kind: 'variable', id: variable.id });

    // An end user's variable: the entry is about the user, and names the variable.
    const user = await createAppUserViaApi(testApp.app, owner, app.id, { username: 'var-user' });
    const userVariableUrl = `${appUrl}/users/${user.id}/variables/theme`;
    const set = await auditedWrite(
      () => consoleCall('PUT', userVariableUrl, { value: 'never-in-the-trail', readOnly: true }),
      200,
    );
    expectEntry(set.entry, 'user_variable_set', { kind: 'end_user', id: user.id });
    expect(set.entry.ownerWrite?.target.label).toBe('var-user');
    expect(set.entry.ownerWrite?.change).toEqual({
      variable: 'theme',
      value: '[redacted]',
      readOnly: true,
    });
    const unset = await auditedWrite(() => consoleCall('DELETE', userVariableUrl), 200);
    expectEntry(unset.entry, 'user_variable_deleted', { kind: 'end_user', id: user.id });

    // A file: recorded when its upload completes, with its size and hash.
    const uploaded = await auditedWrite(
      () =>
        testApp.app.inject({
          method: 'POST',
          url: `${appUrl}/files?name=setup.exe&version=3.1.0`,
          headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
          remoteAddress: OWNER_ADDRESS,
          payload: Buffer.from('installer bytes'),
        }),
      201,
    );
    const file = uploaded.body as { id: string; sha256: string };
    expectEntry(uploaded.entry, 'file_uploaded', { kind: 'file', id: file.id });
    expect(uploaded.entry.ownerWrite?.change).toMatchObject({
      version: '3.1.0',
      sizeBytes: 15,
      sha256: file.sha256,
    });
    const fileDeleted = await auditedWrite(
      () => consoleCall('DELETE', `${appUrl}/files/${file.id}`),
      200,
    );
    expectEntry(fileDeleted.entry, 'file_deleted', { kind: 'file', id: file.id });

    // A KeyAuth import: the file's shape, never its rows (keys, password hashes).
    const exportFile = JSON.stringify({
      users: [{ username: 'imported-one', password: null }],
      subscription: [],
    });
    const previewed = await auditedWrite(
      () =>
        testApp.app.inject({
          method: 'POST',
          url: `${appUrl}/imports?source=keyauth&kind=users`,
          headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
          remoteAddress: OWNER_ADDRESS,
          payload: Buffer.from(exportFile),
        }),
      201,
    );
    const importId = (previewed.body as { id: string }).id;
    expectEntry(previewed.entry, 'import_previewed', { kind: 'import', id: importId });
    expect(previewed.entry.ownerWrite?.change).toMatchObject({ kind: 'users', readableRows: 1 });
    expect(JSON.stringify(previewed.entry)).not.toContain('imported-one');
    const started = await auditedWrite(
      () => consoleCall('POST', `${appUrl}/imports/${importId}/start`, { levelPlans: {} }),
      202,
    );
    expectEntry(started.entry, 'import_started', { kind: 'import', id: importId });

    // A webhook delivery sent again.
    const webhook = (
      await consoleCall('POST', '/api/webhooks', {
        url: 'https://93.184.215.14/hooks',
        events: ['user_login'],
        applicationId: app.id,
      })
    ).json() as { id: number };
    const delivery = await insertWebhookDelivery(db(), webhook.id, { status: 'failed' });
    const retried = await auditedWrite(
      () => consoleCall('POST', `/api/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`),
      200,
    );
    expectEntry(retried.entry, 'webhook_delivery_retried', {
      kind: 'webhook_delivery',
      id: delivery.id,
    });

    // The integration page's samples and the code editor's documents: sizes, not text.
    const saved = await auditedWrite(
      () => consoleCall('PUT', `${appUrl}/samples/python`, { code: 'print("never-in-the-trail")' }),
      200,
    );
    expectEntry(saved.entry, 'sample_saved', { kind: 'sample', id: 'python' });
    expect(JSON.stringify(saved.entry)).not.toContain('never-in-the-trail');
    const reset = await auditedWrite(() => consoleCall('DELETE', `${appUrl}/samples/python`), 200);
    expectEntry(reset.entry, 'sample_reset', { kind: 'sample', id: 'python' });
    const codeSaved = await auditedWrite(
      () => consoleCall('PUT', '/api/code-files/permissions.ts', { content: '// edited' }),
      200,
    );
    expectEntry(
      codeSaved.entry,
      'code_file_saved',
      { kind: 'code_file', id: 'permissions.ts' },
      null,
    );
    expect(codeSaved.entry.ownerWrite?.change).toMatchObject({ version: 2, characters: 9 });
    const versions = (
      await testApp.app.inject({
        url: '/api/code-files/permissions.ts/versions',
        headers: owner.headers,
      })
    ).json() as { versions: { id: string; version: number }[] };
    const first = versions.versions.find((version) => version.version === 1)!;
    const restored = await auditedWrite(
      () => consoleCall('POST', `/api/code-files/permissions.ts/versions/${first.id}/restore`),
      200,
    );
    expectEntry(
      restored.entry,
      'code_file_restored',
      { kind: 'code_file', id: 'permissions.ts' },
      null,
    );
    expect(restored.entry.ownerWrite?.change).toMatchObject({ version: 3, restoredFrom: 1 });
  });

  it('rolls the write back when its entry cannot be written', async () => {
    const user = await createAppUserViaApi(testApp.app, owner, application.id);
    const userUrl = `/api/applications/${application.id}/users/${user.id}`;
    const isPaused = async () => {
      const [row] = await db()
        .select({ isPaused: appUsers.isPaused })
        .from(appUsers)
        .where(eq(appUsers.id, user.id));
      return row!.isPaused;
    };
    await db().execute(sql`
      create function refuse_audit_entries() returns trigger language plpgsql as $$
      begin raise exception 'the audit trail is refusing entries'; end $$`);
    await db().execute(sql`
      create trigger refuse_audit_entries before insert on audit_entries
      for each row execute function refuse_audit_entries()`);
    try {
      const fromConsole = await consoleCall('POST', `${userUrl}/pause`);
      expect(fromConsole.statusCode).toBe(500);
      expect(await isPaused()).toBe(false);
      const edit = await consoleCall('PUT', userUrl, { expiresAt: '2030-01-01T00:00:00.000Z' });
      expect(edit.statusCode).toBe(500);
      const fromShop = await manage(
        'POST',
        `/applications/${application.id}/users/${user.id}/pause`,
        {
          headers: { 'idempotency-key': 'pause-once' },
        },
      );
      expect(fromShop.statusCode).toBe(500);
      expect(await isPaused()).toBe(false);
      const [row] = await db().select().from(appUsers).where(eq(appUsers.id, user.id));
      expect(row!.expiresAt).toBeNull();
    } finally {
      await db().execute(sql`drop trigger refuse_audit_entries on audit_entries`);
      await db().execute(sql`drop function refuse_audit_entries()`);
    }
    // The failed call freed its idempotency key: the retry does the work, and records it.
    const retried = await manage('POST', `/applications/${application.id}/users/${user.id}/pause`, {
      headers: { 'idempotency-key': 'pause-once' },
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await isPaused()).toBe(true);
  });

  it('names the token and its address in the entry of a management write, in the same transaction', async () => {
    const user = await createAppUserViaApi(testApp.app, owner, application.id);
    const { entry } = await auditedWrite(
      () =>
        manage('PATCH', `/applications/${application.id}/users/${user.id}`, {
          payload: { isPaused: true, password: 'never-in-the-trail-3' },
        }),
      200,
    );
    expect(entry.action).toBe('end_user_updated');
    expect(entry.actor).toEqual({ id: owner.accountId, email: owner.account.email });
    expect(entry.actorToken).toEqual({ id: shop.id, name: 'Audit shop', prefix: shop.prefix });
    expect(entry.ipAddress).toBe(SHOP_ADDRESS);
    expect(entry.ownerWrite).toMatchObject({
      application: { id: application.id, name: 'Audited App' },
      target: { kind: 'end_user', id: user.id, label: user.username },
      change: { isPaused: true, password: '[redacted]' },
    });

    const plan = await createPlanViaApi(testApp.app, owner, application.id);
    const [key] = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: plan.id,
    });
    const banned = await auditedWrite(
      () =>
        manage('POST', `/applications/${application.id}/licenses/${key!.id}/ban`, {
          payload: { reason: 'fraud' },
        }),
      200,
    );
    expect(banned.entry.action).toBe('license_key_banned');
    expect(banned.entry.actorToken?.id).toBe(shop.id);
    expect(JSON.stringify(banned.entry)).not.toContain(key!.key);
  });

  it('lets the account read its own trail through the management API', async () => {
    const user = await createAppUserViaApi(testApp.app, owner, application.id);
    await manage('POST', `/applications/${application.id}/users/${user.id}/pause`);
    // Another owner's changes are theirs alone.
    const other = await signInOwner(testApp.app);
    const othersApp = await createApplicationViaApi(testApp.app, other, { name: 'Not Yours' });

    const read = (token: string, query = '') =>
      testApp.app.inject({
        url: `/api/manage/v1/audit${query}`,
        headers: { authorization: `Bearer ${token}` },
      });
    const response = await read(shop.token, '?pageSize=200');
    expect(response.statusCode, response.body).toBe(200);
    const entries = auditEntryListSchema.parse(response.json());
    expect(entries.every((entry) => entry.actor.id === owner.accountId)).toBe(true);
    expect(JSON.stringify(entries)).not.toContain('Not Yours');
    const [paused, created] = entries.filter((entry) => entry.ownerWrite?.target.id === user.id);
    expect(paused).toMatchObject({
      action: 'end_user_paused',
      actorToken: { id: shop.id, name: 'Audit shop' },
      ipAddress: SHOP_ADDRESS,
      ownerWrite: {
        application: { id: application.id, name: 'Audited App' },
        target: { kind: 'end_user', id: user.id, label: user.username },
        change: { isPaused: true },
      },
    });
    expect(created).toMatchObject({ action: 'end_user_created', ipAddress: '127.0.0.1' });
    expect(created!.actorToken).toBeUndefined();
    expect(created!.ownerWrite!.change).toMatchObject({ password: '[redacted]' });

    // One application's changes; a token restricted to some applications must name one.
    const onlyOthers = await read(shop.token, `?applicationId=${othersApp.id}`);
    expect(onlyOthers.json()).toEqual([]);
    const restricted = await createApiTokenViaApi(testApp.app, owner, {
      scopes: ['activity:read'],
      applicationIds: [application.id],
    });
    expect((await read(restricted.token)).statusCode).toBe(400);
    const scoped = await read(restricted.token, `?applicationId=${application.id}&pageSize=200`);
    expect(scoped.statusCode, scoped.body).toBe(200);
    const scopedEntries = auditEntryListSchema.parse(scoped.json());
    expect(scopedEntries.length).toBeGreaterThan(0);
    expect(
      scopedEntries.every((entry) => entry.ownerWrite?.application?.id === application.id),
    ).toBe(true);
    expect((await read(restricted.token, `?applicationId=${othersApp.id}`)).statusCode).toBe(404);
    const withoutScope = await createApiTokenViaApi(testApp.app, owner, { scopes: ['users:read'] });
    expect((await read(withoutScope.token)).statusCode).toBe(403);
  });

  it('finds the entries by or about an account by its e-mail, never by an end user\u2019s name', async () => {
    const vendor = await signInOwner(testApp.app);
    const vendorApp = await createApplicationViaApi(testApp.app, vendor, { name: 'Vendor App' });
    await createAppUserViaApi(testApp.app, vendor, vendorApp.id, { username: 'searchable-pat' });
    const search = async (text: string) => {
      const response = await testApp.app.inject({
        url: `/api/admin/audit?pageSize=200&search=${encodeURIComponent(text)}`,
        headers: owner.headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return auditEntryListSchema.parse(response.json());
    };
    const found = await search(vendor.account.email.toUpperCase());
    expect(found.map((entry) => entry.action).sort()).toEqual([
      'application_created',
      'end_user_created',
    ]);
    expect(await search('searchable-pat')).toEqual([]);
  });

  it('refuses a too-deep body before any write runs, and writes nothing', async () => {
    const user = await createAppUserViaApi(testApp.app, owner, application.id);
    const userUrl = `/applications/${application.id}/users/${user.id}`;
    const entriesBefore = await entryCount();

    for (const depth of [40, 2_000, 10_000]) {
      const edit = await manage('PATCH', userUrl, {
        payload: withNested({ isPaused: true, expiresAt: '2030-01-01T00:00:00Z' }, depth),
        headers: json,
      });
      expect(edit.statusCode, edit.body).toBe(400);
      expect(String(edit.headers['content-type'])).toMatch(/^application\/problem\+json/);
      expect(problemSchema.parse(edit.json())).toMatchObject({ code: 'BAD_REQUEST' });
      expect(edit.json().detail).toMatch(/nests arrays and objects more than 32 levels/);

      const pause = await manage('POST', `${userUrl}/pause`, {
        payload: nestedText(depth),
        headers: { ...json, 'idempotency-key': `deep-${depth}` },
      });
      expect(pause.statusCode, pause.body).toBe(400);

      const fromConsole = await testApp.app.inject({
        method: 'PUT',
        url: `/api/applications/${application.id}/users/${user.id}`,
        headers: { ...owner.headers, ...json },
        payload: withNested({ isPaused: true }, depth),
      });
      expect(fromConsole.statusCode, fromConsole.body).toBe(400);
      expect(fromConsole.json()).toMatchObject({ code: 'BAD_REQUEST' });
    }
    const [row] = await db().select().from(appUsers).where(eq(appUsers.id, user.id));
    expect(row).toMatchObject({ isPaused: false, expiresAt: null });
    expect(await entryCount()).toBe(entriesBefore);

    // Within the limit, the body is read as before (unknown fields are ignored).
    const shallow = await manage('PATCH', userUrl, {
      payload: withNested({ isPaused: true }, 20),
      headers: json,
    });
    expect(shallow.statusCode, shallow.body).toBe(200);
    expect(await entryCount()).toBe(entriesBefore + 1);
  });
});
