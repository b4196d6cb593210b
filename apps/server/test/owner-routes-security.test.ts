import { createHmac, randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import {
  activityLogs,
  appFiles,
  imports,
  applications,
  appUserDevices,
  appUserSessions,
  appUsers,
  appUserVariables,
  appVariables,
  blacklistEntries,
  codeFiles,
  codeFileVersions,
  licenseKeys,
  mailMessages,
  ownerAccounts,
  plans,
  seatLeases,
  shopConnections,
  shopOrders,
  subscriptions,
  webhookDeliveries,
  webhooks,
  apiTokens,
} from '../src/db/schema/index.ts';
import {
  createApplicationViaApi,
  createApiTokenViaApi,
  createAppUserViaApi,
  createPlanViaApi,
  createWebhookViaApi,
  generateLicensesViaApi,
  grantSubscriptionViaApi,
  insertActivityLog,
  insertAppUserSession,
  insertBlacklistEntry,
  insertWebhookDelivery,
} from './factories.ts';
import {
  createTestApp,
  signInOwner,
  testConsoleOrigin,
  type SignedInOwner,
  type TestApp,
} from './test-app.ts';
import { collectApiRoutes, routesWithoutOwnerSession } from './routes-without-owner-session.ts';

/**
 * Every route registered on the app, collected through Fastify's onRoute hook, so the table
 * below cannot silently fall behind: a new owner route fails this file until it is listed.
 */
const registeredRoutes = new Set<string>();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Fixture {
  applicationId: number;
  userId: string;
  /** A plan of the application. */
  planId: string;
  /** A licence key of the plan. */
  licenseId: string;
  /** The user's subscription of the plan. */
  subscriptionId: string;
  /** The user's device. */
  deviceId: string;
  blacklistEntryId: number;
  webhookId: number;
  deliveryId: string;
  /** A message of the application's mail log (failed, so it could be sent again). */
  messageId: string;
  /** A version of the account's own authentication.ts (the code editor's history). */
  codeFileVersionId: string;
  /** Another account of the site: the target of the admin routes. */
  accountId: string;
  /** An application variable, and a variable of the user. */
  variableId: string;
  userVariableName: string;
  /** A management API token of the account. */
  apiTokenId: string;
  /** A file of the application. */
  fileId: string;
  /** A previewed KeyAuth import of the application. */
  importId: string;
  /** A floating seat the user holds. */
  leaseId: string;
  /** A Sellix connection of the application, and its order that waits for processing. */
  connectionId: string;
  orderId: string;
}

interface OwnerRoute {
  method: Method;
  path: string;
  /** Query string, with the same :placeholders as the path. */
  query?: string;
  body?: Record<string, unknown> | ((fixture: Fixture) => Record<string, unknown>);
  /** A body of raw bytes (application/octet-stream) instead of JSON: a file upload. */
  rawBody?: string;
  /**
   * What a second owner gets when replaying it with the first owner's ids: a 404 that does
   * not reveal the target exists, or (routes without ids) only their own data.
   */
  asOtherOwner: { status: 404 | 403; message: string } | 'own-data';
}

const applicationNotFound = { status: 404, message: 'Application not found' } as const;
const webhookNotFound = { status: 404, message: 'Webhook not found' } as const;
/** The admin routes span accounts by design: the second owner, a plain `user`, is refused. */
const needs = (label: string) =>
  ({ status: 403, message: `You need the "${label}" permission to do this.` }) as const;

/** A value only the victim's data contains: it must never reach the second owner. */
const VICTIM_BLOCKED_VALUE = 'victim-blocked-username';
const VICTIM_WEBHOOK_URL = 'https://93.184.215.14/victim-receiver';
const VICTIM_PLAN_NAME = 'Victim plan';
const VICTIM_VARIABLE_VALUE = 'victim-variable-value';
const SHOP_FIXTURE_PRODUCT = 'fixture-product';
const SHOP_FIXTURE_SECRET = 'sellix-fixture-secret';

/** EVERY owner route. Adding an owner route means adding it here. */
const ownerRoutes: OwnerRoute[] = [
  { method: 'GET', path: '/api/auth/user', asOtherOwner: 'own-data' },
  { method: 'GET', path: '/api/dashboard/stats', asOtherOwner: 'own-data' },
  // The stream is keyed by the session's account: another owner's stream is their own.
  { method: 'GET', path: '/api/events', asOtherOwner: 'own-data' },
  { method: 'GET', path: '/api/dashboard/activity-chart', asOtherOwner: 'own-data' },
  { method: 'GET', path: '/api/dashboard/sales', asOtherOwner: 'own-data' },
  { method: 'GET', path: '/api/applications', asOtherOwner: 'own-data' },
  {
    method: 'POST',
    path: '/api/applications',
    body: { name: 'Intruder app', description: 'made by the second owner' },
    asOtherOwner: 'own-data',
  },
  {
    method: 'PUT',
    path: '/api/applications/:id',
    body: {
      name: 'Hijacked',
      description: 'hijacked',
      version: '6.6.6',
      isActive: false,
      hwidLockEnabled: true,
      loginSuccessMessage: 'pwned',
      loginFailedMessage: 'pwned',
      accountDisabledMessage: 'pwned',
      accountExpiredMessage: 'pwned',
      versionMismatchMessage: 'pwned',
      hwidMismatchMessage: 'pwned',
    },
    asOtherOwner: applicationNotFound,
  },
  { method: 'DELETE', path: '/api/applications/:id', asOtherOwner: applicationNotFound },
  { method: 'GET', path: '/api/applications/:id/stats', asOtherOwner: applicationNotFound },
  {
    method: 'GET',
    path: '/api/applications/:id/activity-chart',
    asOtherOwner: applicationNotFound,
  },
  { method: 'GET', path: '/api/applications/:id/users', asOtherOwner: applicationNotFound },
  {
    method: 'POST',
    path: '/api/applications/:id/users',
    body: { username: 'planted', password: 'planted-password', email: null },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'PUT',
    path: '/api/applications/:appId/users/:userId',
    body: {
      username: 'hijacked',
      email: 'hijacked@example.com',
      isActive: false,
      isPaused: true,
      hwid: 'ATTACKER-DEVICE',
      expiresAt: '2000-01-01T00:00:00.000Z',
      password: 'attacker-password',
    },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:appId/users/:userId',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/users/bulk',
    body: (fixture) => ({
      operationId: '00000000-0000-4000-8000-00000000b0b0',
      action: 'delete',
      userIds: [fixture.userId],
    }),
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/pause',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/unpause',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/reset-hwid',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/password-reset',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/verify-email',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'GET',
    path: '/api/applications/:appId/users/:userId/devices',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:appId/users/:userId/devices/:deviceId',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:appId/users/:userId/devices',
    asOtherOwner: applicationNotFound,
  },
  { method: 'GET', path: '/api/applications/:id/files', asOtherOwner: applicationNotFound },
  {
    method: 'POST',
    path: '/api/applications/:id/files',
    query: 'name=planted.exe&version=6.6.6',
    rawBody: 'planted bytes',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:id/files/:fileId',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/imports',
    query: 'source=keyauth&kind=keys',
    rawBody: 'PLANTED-KEY-0001\r\nPLANTED-KEY-0002\r\n',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/imports/:importId/start',
    body: (fixture) => ({ levelPlans: { '': fixture.planId } }),
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'GET',
    path: '/api/applications/:id/imports/:importId',
    asOtherOwner: applicationNotFound,
  },
  { method: 'GET', path: '/api/applications/:id/plans', asOtherOwner: applicationNotFound },
  {
    method: 'POST',
    path: '/api/applications/:id/plans',
    body: { name: 'Planted plan', durationDays: 1, entitlements: ['PLANTED'] },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'PUT',
    path: '/api/applications/:id/plans/:planId',
    body: {
      name: 'Hijacked plan',
      durationDays: null,
      entitlements: ['PWNED'],
      description: 'hijacked',
      archived: true,
    },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:id/plans/:planId',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/plans/:planId/delete-unused',
    asOtherOwner: applicationNotFound,
  },
  { method: 'GET', path: '/api/applications/:id/seats', asOtherOwner: applicationNotFound },
  {
    method: 'DELETE',
    path: '/api/applications/:id/seats/:leaseId',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'GET',
    path: '/api/applications/:id/licenses',
    query: 'planId=:planId',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/licenses',
    body: (fixture) => ({ planId: fixture.planId, count: 3 }),
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'GET',
    path: '/api/applications/:id/licenses/export.csv',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'GET',
    path: '/api/applications/:id/licenses/:licenseId/key',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/licenses/:licenseId/ban',
    body: { reason: 'planted' },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/licenses/:licenseId/email',
    body: { to: 'attacker@example.com' },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/licenses/:licenseId/unban',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:id/licenses/:licenseId',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'GET',
    path: '/api/applications/:appId/users/:userId/subscriptions',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'GET',
    path: '/api/applications/:appId/users/:userId/meters',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/subscriptions',
    body: (fixture) => ({ planId: fixture.planId, expiresAt: null }),
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'PUT',
    path: '/api/applications/:appId/users/:userId/subscriptions/:subscriptionId',
    body: { expiresAt: null },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:appId/users/:userId/subscriptions/:subscriptionId',
    asOtherOwner: applicationNotFound,
  },
  { method: 'GET', path: '/api/applications/:id/variables', asOtherOwner: applicationNotFound },
  {
    method: 'POST',
    path: '/api/applications/:id/variables',
    body: { name: 'planted', value: 'planted', requiresSession: false },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'PUT',
    path: '/api/applications/:id/variables/:variableId',
    body: { name: 'hijacked', value: 'pwned', requiresSession: false },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:id/variables/:variableId',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'GET',
    path: '/api/applications/:appId/users/:userId/variables',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'PUT',
    path: '/api/applications/:appId/users/:userId/variables/:name',
    body: { value: 'pwned', readOnly: false },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:appId/users/:userId/variables/:name',
    asOtherOwner: applicationNotFound,
  },
  { method: 'GET', path: '/api/blacklist', asOtherOwner: 'own-data' },
  {
    method: 'POST',
    path: '/api/blacklist',
    body: (fixture) => ({
      type: 'ip',
      value: '198.51.100.23',
      reason: 'planted',
      applicationId: fixture.applicationId,
    }),
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/blacklist/:entryId',
    asOtherOwner: { status: 404, message: 'Blacklist entry not found' },
  },
  {
    method: 'GET',
    path: '/api/activity-logs',
    query: 'applicationId=:id',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'GET',
    path: '/api/activity-logs/stats',
    query: 'applicationId=:id',
    asOtherOwner: applicationNotFound,
  },
  { method: 'GET', path: '/api/webhooks', asOtherOwner: 'own-data' },
  {
    method: 'POST',
    path: '/api/webhooks',
    body: (fixture) => ({
      url: 'https://93.184.215.14/planted',
      events: ['user_login'],
      applicationId: fixture.applicationId,
    }),
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'PUT',
    path: '/api/webhooks/:id',
    body: {
      url: 'https://93.184.215.14/hijacked',
      secret: 'attacker-chosen-secret',
      events: ['user_login', 'login_failed'],
      isActive: false,
      applicationId: null,
      format: 'json',
    },
    asOtherOwner: webhookNotFound,
  },
  { method: 'DELETE', path: '/api/webhooks/:id', asOtherOwner: webhookNotFound },
  { method: 'GET', path: '/api/webhooks/:id/secret', asOtherOwner: webhookNotFound },
  { method: 'GET', path: '/api/webhooks/:id/deliveries', asOtherOwner: webhookNotFound },
  {
    method: 'POST',
    path: '/api/webhooks/:id/deliveries/:deliveryId/retry',
    asOtherOwner: webhookNotFound,
  },
  {
    method: 'GET',
    path: '/api/applications/:id/shop-connections',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/shop-connections',
    body: (fixture) => ({
      provider: 'stripe',
      name: 'Hijacked shop',
      secret: 'whsec_attacker_chosen_secret',
      products: [{ productId: 'price_x', planId: fixture.planId }],
    }),
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'PUT',
    path: '/api/applications/:id/shop-connections/:connectionId',
    body: { name: 'Hijacked shop', secret: 'attacker-chosen-secret' },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:id/shop-connections/:connectionId',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/shop-connections/:connectionId/test-event',
    body: { productId: SHOP_FIXTURE_PRODUCT },
    asOtherOwner: applicationNotFound,
  },
  { method: 'GET', path: '/api/applications/:id/orders', asOtherOwner: applicationNotFound },
  {
    method: 'GET',
    path: '/api/applications/:id/orders/:orderId',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/orders/:orderId/process',
    asOtherOwner: applicationNotFound,
  },
  { method: 'GET', path: '/api/applications/:id/mail', asOtherOwner: applicationNotFound },
  {
    method: 'GET',
    path: '/api/applications/:id/mail-templates',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'PUT',
    path: '/api/applications/:id/mail-templates/:kind',
    body: { subject: 'planted', text: 'planted', html: 'planted' },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:id/mail-templates/:kind',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/mail-templates/:kind/preview',
    body: { subject: 'planted', text: 'planted', html: 'planted' },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/mail-templates/:kind/test',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'GET',
    path: '/api/applications/:id/mail/:messageId',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/applications/:id/mail/:messageId/resend',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'POST',
    path: '/api/test-webhook',
    body: { event: 'user_login' },
    asOtherOwner: 'own-data',
  },
  { method: 'GET', path: '/api/samples/:language', asOtherOwner: 'own-data' },
  {
    method: 'GET',
    path: '/api/applications/:id/samples/:language',
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'PUT',
    path: '/api/applications/:id/samples/:language',
    body: { code: 'planted code' },
    asOtherOwner: applicationNotFound,
  },
  {
    method: 'DELETE',
    path: '/api/applications/:id/samples/:language',
    asOtherOwner: applicationNotFound,
  },
  // The code editor's documents: every account has its own three, by name.
  { method: 'GET', path: '/api/code-files', asOtherOwner: 'own-data' },
  { method: 'GET', path: '/api/code-files/:name', asOtherOwner: 'own-data' },
  {
    method: 'PUT',
    path: '/api/code-files/:name',
    body: { content: '// planted by another account' },
    asOtherOwner: 'own-data',
  },
  { method: 'GET', path: '/api/code-files/:name/versions', asOtherOwner: 'own-data' },
  {
    method: 'POST',
    path: '/api/code-files/:name/versions/:versionId/restore',
    asOtherOwner: { status: 404, message: 'Version not found' },
  },
  { method: 'GET', path: '/api/admin/users', asOtherOwner: needs('Manage Users') },
  {
    method: 'PATCH',
    path: '/api/admin/users/:id',
    body: { role: 'moderator', permissions: ['edit_code'], isActive: true },
    asOtherOwner: {
      status: 403,
      message: 'You need the "Manage Users" or "Manage Permissions" permission to do this.',
    },
  },
  { method: 'DELETE', path: '/api/admin/users/:id', asOtherOwner: needs('Manage Users') },
  { method: 'GET', path: '/api/admin/audit', asOtherOwner: needs('Access Admin Panel') },
  { method: 'GET', path: '/api/admin/overview', asOtherOwner: needs('View All Data') },
  { method: 'GET', path: '/api/api-tokens', asOtherOwner: 'own-data' },
  {
    method: 'POST',
    path: '/api/api-tokens',
    body: { name: 'Intruder token', scopes: ['users:read'] },
    asOtherOwner: 'own-data',
  },
  {
    method: 'DELETE',
    path: '/api/api-tokens/:id',
    asOtherOwner: { status: 404, message: 'API token not found' },
  },
];

function fill(path: string, fixture: Fixture): string {
  const id = path.startsWith('/api/admin/users/')
    ? fixture.accountId
    : path.startsWith('/api/webhooks/')
      ? fixture.webhookId
      : path.startsWith('/api/api-tokens/')
        ? fixture.apiTokenId
        : fixture.applicationId;
  return path
    .replace(':id', String(id))
    .replace(':deliveryId', fixture.deliveryId)
    .replace(':messageId', fixture.messageId)
    .replace(':connectionId', fixture.connectionId)
    .replace(':orderId', fixture.orderId)
    .replace(':versionId', fixture.codeFileVersionId)
    .replace(':variableId', fixture.variableId)
    .replace(':name', path.includes('/variables/') ? fixture.userVariableName : 'authentication.ts')
    .replace(':appId', String(fixture.applicationId))
    .replace(':userId', fixture.userId)
    .replace(':planId', fixture.planId)
    .replace(':leaseId', fixture.leaseId)
    .replace(':licenseId', fixture.licenseId)
    .replace(':subscriptionId', fixture.subscriptionId)
    .replace(':deviceId', fixture.deviceId)
    .replace(':fileId', fixture.fileId)
    .replace(':importId', fixture.importId)
    .replace(':entryId', String(fixture.blacklistEntryId))
    .replace(':language', 'csharp')
    .replace(':kind', 'password_reset');
}

const mutating = (method: Method) => method !== 'GET';

describe('every owner route is closed to everyone but its owner', () => {
  let testApp: TestApp;
  let victim: SignedInOwner;
  let attacker: SignedInOwner;
  let victimData: Fixture;

  /** Everything of the victim's that any route could change, read straight from the tables. */
  const snapshotOfVictim = async () => {
    const db = testApp.database.db;
    const victimApplications = await db
      .select()
      .from(applications)
      .where(eq(applications.ownerAccountId, victim.accountId))
      .orderBy(applications.id);
    const applicationIds = victimApplications.map((application) => application.id);
    const victimWebhooks = await db
      .select()
      .from(webhooks)
      .where(eq(webhooks.ownerAccountId, victim.accountId))
      .orderBy(webhooks.id);
    return {
      account: await db.select().from(ownerAccounts).where(eq(ownerAccounts.id, victim.accountId)),
      applications: victimApplications,
      users: await db
        .select()
        .from(appUsers)
        .where(inArray(appUsers.applicationId, applicationIds))
        .orderBy(appUsers.id),
      sessions: await db
        .select()
        .from(appUserSessions)
        .where(inArray(appUserSessions.applicationId, applicationIds))
        .orderBy(appUserSessions.id),
      logs: await db
        .select()
        .from(activityLogs)
        .where(inArray(activityLogs.applicationId, applicationIds))
        .orderBy(activityLogs.id),
      blacklist: await db
        .select()
        .from(blacklistEntries)
        .where(eq(blacklistEntries.ownerAccountId, victim.accountId))
        .orderBy(blacklistEntries.id),
      plans: await db
        .select()
        .from(plans)
        .where(inArray(plans.applicationId, applicationIds))
        .orderBy(plans.id),
      licenseKeys: await db
        .select()
        .from(licenseKeys)
        .where(inArray(licenseKeys.applicationId, applicationIds))
        .orderBy(licenseKeys.id),
      subscriptions: await db
        .select()
        .from(subscriptions)
        .where(inArray(subscriptions.applicationId, applicationIds))
        .orderBy(subscriptions.id),
      devices: await db
        .select()
        .from(appUserDevices)
        .where(inArray(appUserDevices.applicationId, applicationIds))
        .orderBy(appUserDevices.id),
      webhooks: victimWebhooks,
      apiTokens: await db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.ownerAccountId, victim.accountId))
        .orderBy(apiTokens.id),
      deliveries: await db
        .select()
        .from(webhookDeliveries)
        .where(
          inArray(
            webhookDeliveries.webhookId,
            victimWebhooks.map((webhook) => webhook.id),
          ),
        )
        .orderBy(webhookDeliveries.id),
      codeFiles: await db
        .select()
        .from(codeFiles)
        .where(eq(codeFiles.ownerAccountId, victim.accountId))
        .orderBy(codeFiles.name),
      files: await db
        .select()
        .from(appFiles)
        .where(inArray(appFiles.applicationId, applicationIds))
        .orderBy(appFiles.id),
      imports: await db
        .select()
        .from(imports)
        .where(inArray(imports.applicationId, applicationIds))
        .orderBy(imports.id),
      codeFileVersions: await db
        .select()
        .from(codeFileVersions)
        .where(eq(codeFileVersions.ownerAccountId, victim.accountId))
        .orderBy(codeFileVersions.id),
      variables: await db
        .select()
        .from(appVariables)
        .where(inArray(appVariables.applicationId, applicationIds))
        .orderBy(appVariables.id),
      shopConnections: await db
        .select()
        .from(shopConnections)
        .where(inArray(shopConnections.applicationId, applicationIds))
        .orderBy(shopConnections.id),
      shopOrders: await db
        .select()
        .from(shopOrders)
        .where(inArray(shopOrders.applicationId, applicationIds))
        .orderBy(shopOrders.id),
      userVariables: await db
        .select()
        .from(appUserVariables)
        .where(inArray(appUserVariables.applicationId, applicationIds))
        .orderBy(appUserVariables.appUserId, appUserVariables.name),
    };
  };

  const createFixture = async (owner: SignedInOwner): Promise<Fixture> => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const user = await createAppUserViaApi(testApp.app, owner, application.id, {
      email: 'victim-user@example.com',
      hwid: 'VICTIM-DEVICE',
    });
    const plan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: owner === victim ? VICTIM_PLAN_NAME : 'Attacker plan',
      durationDays: 30,
      entitlements: ['PRO'],
    });
    // The key and the subscription are of another plan: the plan routes' own plan stays
    // unused, so deleting it or granting it succeeds for the owner (the positive control).
    const keyPlan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: owner === victim ? `${VICTIM_PLAN_NAME} (keys)` : 'Attacker plan (keys)',
    });
    const [license] = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: keyPlan.id,
    });
    const [subscription] = await grantSubscriptionViaApi(
      testApp.app,
      owner,
      { applicationId: application.id, userId: user.id },
      { planId: keyPlan.id },
    );
    const [lease] = await testApp.database.db
      .insert(seatLeases)
      .values({
        applicationId: application.id,
        appUserId: user.id,
        tokenHash: `fixture-${randomUUID()}`,
        hwid: 'VICTIM-DEVICE',
        leaseMinutes: 60,
        expiresAt: new Date(Date.now() + 86_400_000),
        createdAt: new Date(),
      })
      .returning({ id: seatLeases.id });
    const entry = await insertBlacklistEntry(testApp.database.db, {
      ownerAccountId: owner.accountId,
      applicationId: application.id,
      type: 'username',
      value: owner === victim ? VICTIM_BLOCKED_VALUE : `blocked-by-${owner.accountId}`,
    });
    const webhook = await createWebhookViaApi(testApp.app, owner, {
      url: owner === victim ? VICTIM_WEBHOOK_URL : 'https://93.184.215.14/attacker-receiver',
      events: ['user_login'],
    });
    const delivery = await insertWebhookDelivery(testApp.database.db, webhook.id, {
      status: 'failed',
    });
    const [message] = await testApp.database.db
      .insert(mailMessages)
      .values({
        applicationId: application.id,
        appUserId: user.id,
        kind: 'password_reset',
        recipient: `${user.username}@example.com`,
        status: 'failed',
      })
      .returning({ id: mailMessages.id });
    // A saved version, so the account's history names it (the e-mail of who saved).
    const savedCodeFile = await testApp.app.inject({
      method: 'PUT',
      url: '/api/code-files/authentication.ts',
      headers: owner.headers,
      payload: { content: `// notes of ${owner.account.email}\n` },
    });
    if (savedCodeFile.statusCode !== 200) throw new Error(`save code file: ${savedCodeFile.body}`);
    const codeFileHistory = await testApp.app.inject({
      url: '/api/code-files/authentication.ts/versions',
      headers: owner.headers,
    });
    const variable = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/variables`,
      headers: owner.headers,
      payload: {
        name: 'kill_switch',
        value: owner === victim ? VICTIM_VARIABLE_VALUE : 'attacker-value',
      },
    });
    if (variable.statusCode !== 201) throw new Error(`create variable: ${variable.body}`);
    const userVariableName = 'theme';
    const userVariable = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}/users/${user.id}/variables/${userVariableName}`,
      headers: owner.headers,
      payload: { value: owner === victim ? VICTIM_VARIABLE_VALUE : 'attacker-value' },
    });
    if (userVariable.statusCode !== 200) throw new Error(`set user variable: ${userVariable.body}`);
    const uploaded = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/files?name=setup.exe&version=2.0.0`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from(`installer of ${owner.account.email}`),
    });
    if (uploaded.statusCode !== 201) throw new Error(`upload file: ${uploaded.body}`);
    const previewedImport = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/imports?source=keyauth&kind=keys`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('KEYAUTH-FIXTURE-0001\r\n'),
    });
    if (previewedImport.statusCode !== 201) throw new Error(`import: ${previewedImport.body}`);
    // A Sellix order of a product not mapped yet (needs mapping), then the product mapped:
    // the order can be processed, and a test event of the product mints.
    const shop = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/shop-connections`,
      headers: owner.headers,
      payload: { provider: 'sellix', name: 'Fixture shop', secret: SHOP_FIXTURE_SECRET },
    });
    if (shop.statusCode !== 201) throw new Error(`shop connection: ${shop.body}`);
    const connection = shop.json() as { id: string; webhookUrl: string };
    const sellixOrder = JSON.stringify({
      event: 'product:dynamic',
      data: { uniqid: `fixture-${randomUUID()}`, customer_email: 'buyer@example.com' },
    });
    const delivered = await testApp.app.inject({
      method: 'POST',
      url: new URL(connection.webhookUrl).pathname,
      headers: {
        'content-type': 'application/json',
        'x-sellix-product-id': SHOP_FIXTURE_PRODUCT,
        'x-sellix-signature': createHmac('sha512', SHOP_FIXTURE_SECRET)
          .update(sellixOrder)
          .digest('hex'),
      },
      payload: sellixOrder,
    });
    if (delivered.statusCode !== 200) throw new Error(`shop event: ${delivered.body}`);
    const mapped = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}/shop-connections/${connection.id}`,
      headers: owner.headers,
      payload: { products: [{ productId: SHOP_FIXTURE_PRODUCT, planId: keyPlan.id }] },
    });
    if (mapped.statusCode !== 200) throw new Error(`map product: ${mapped.body}`);
    const [order] = await testApp.database.db
      .select({ id: shopOrders.id })
      .from(shopOrders)
      .where(eq(shopOrders.connectionId, connection.id));
    const account = await signInOwner(testApp.app);
    const [device] = await testApp.database.db
      .select({ id: appUserDevices.id })
      .from(appUserDevices)
      .where(eq(appUserDevices.appUserId, user.id));
    return {
      deviceId: device!.id,
      codeFileVersionId: (codeFileHistory.json() as { versions: { id: string }[] }).versions[0]!.id,
      applicationId: application.id,
      userId: user.id,
      planId: plan.id,
      licenseId: license!.id,
      subscriptionId: subscription!.id,
      blacklistEntryId: entry.id,
      webhookId: webhook.id,
      deliveryId: delivery.id,
      messageId: message!.id,
      accountId: account.accountId,
      variableId: (variable.json() as { id: string }).id,
      userVariableName,
      fileId: (uploaded.json() as { id: string }).id,
      importId: (previewedImport.json() as { id: string }).id,
      leaseId: lease!.id,
      connectionId: connection.id,
      orderId: order!.id,
      apiTokenId: (await createApiTokenViaApi(testApp.app, owner, { scopes: ['users:read'] })).id,
    };
  };

  const send = (route: OwnerRoute, fixture: Fixture, headers: Record<string, string>) => {
    const body = typeof route.body === 'function' ? route.body(fixture) : route.body;
    const query = route.query ? `?${fill(route.query, fixture)}` : '';
    return testApp.app.inject({
      method: route.method,
      url: `${fill(route.path, fixture)}${query}`,
      headers: route.rawBody ? { ...headers, 'content-type': 'application/octet-stream' } : headers,
      ...(route.rawBody ? { payload: Buffer.from(route.rawBody) } : body ? { payload: body } : {}),
    } as InjectOptions);
  };

  let before: Awaited<ReturnType<typeof snapshotOfVictim>>;

  beforeAll(async () => {
    testApp = await createTestApp({ onRoute: collectApiRoutes(registeredRoutes) });
    victim = await signInOwner(testApp.app);
    attacker = await signInOwner(testApp.app);
    // Every permission of a vendor's own environment: what stops the attacker below is the
    // scoping of the data, not a missing permission (owner-route-permissions.test.ts has those).
    await testApp.database.db
      .update(ownerAccounts)
      .set({
        permissions: [
          'manage_applications',
          'delete_applications',
          'edit_code',
          'manage_api_tokens',
        ],
      })
      .where(eq(ownerAccounts.id, attacker.accountId));
    victimData = await createFixture(victim);
    const db = testApp.database.db;
    await insertAppUserSession(db, {
      applicationId: victimData.applicationId,
      appUserId: victimData.userId,
      lastHeartbeatAt: new Date(),
    });
    await insertActivityLog(db, {
      applicationId: victimData.applicationId,
      appUserId: victimData.userId,
      event: 'user_login',
      success: true,
    });
    before = await snapshotOfVictim();
  });
  afterAll(() => testApp.close());

  it('lists every registered owner route in the table, and nothing else', () => {
    const ownerRouteKeys = [...registeredRoutes].filter(
      (key) => !routesWithoutOwnerSession.has(key),
    );
    expect(registeredRoutes.size).toBeGreaterThan(ownerRoutes.length);
    const table = ownerRoutes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(table).size).toBe(table.length);
    expect(ownerRouteKeys.sort()).toEqual([...table].sort());
  });

  it.each(ownerRoutes)('$method $path: 401 without a session', async (route) => {
    const response = await send(route, victimData, {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const forged = await send(route, victimData, {
      cookie: 'latchkey_session=forged-token',
      'x-account-id': victim.accountId,
      origin: testConsoleOrigin,
    });
    expect(forged.statusCode).toBe(401);
  });

  it.each(ownerRoutes)(
    "$method $path: a second owner gets 404 (or only their own data) for the first owner's ids",
    async (route) => {
      const response = await send(route, victimData, attacker.headers);
      if (route.asOtherOwner === 'own-data') {
        expect(response.statusCode).toBeLessThan(300);
        for (const secret of [
          victim.accountId,
          victim.account.email,
          victimData.userId,
          VICTIM_BLOCKED_VALUE,
          VICTIM_WEBHOOK_URL,
          victimData.planId,
          VICTIM_PLAN_NAME,
          VICTIM_VARIABLE_VALUE,
        ]) {
          expect(response.body).not.toContain(secret);
        }
        if (route.path === '/api/applications' && route.method === 'GET') {
          expect(response.json()).toEqual(
            expect.not.arrayContaining([expect.objectContaining({ id: victimData.applicationId })]),
          );
        }
        return;
      }
      expect(response.statusCode).toBe(route.asOtherOwner.status);
      expect(response.json()).toEqual({
        message: route.asOtherOwner.message,
        code: route.asOtherOwner.status === 404 ? 'NOT_FOUND' : 'FORBIDDEN',
      });
      // Indistinguishable from ids that do not exist at all.
      const nonexistent = await send(
        route,
        {
          applicationId: 2_000_000_000,
          userId: randomUUID(),
          planId: randomUUID(),
          licenseId: randomUUID(),
          subscriptionId: randomUUID(),
          deviceId: randomUUID(),
          blacklistEntryId: 2_000_000_000,
          webhookId: 2_000_000_000,
          deliveryId: randomUUID(),
          messageId: randomUUID(),
          codeFileVersionId: randomUUID(),
          accountId: randomUUID(),
          variableId: randomUUID(),
          userVariableName: 'never_set',
          fileId: randomUUID(),
          importId: randomUUID(),
          leaseId: randomUUID(),
          apiTokenId: randomUUID(),
          connectionId: randomUUID(),
          orderId: randomUUID(),
        },
        attacker.headers,
      );
      expect(nonexistent.statusCode).toBe(response.statusCode);
      expect(nonexistent.json()).toEqual(response.json());
    },
  );

  it("a second owner cannot reach the first owner's user through their own application", async () => {
    const attackerData = await createFixture(attacker);
    for (const route of ownerRoutes.filter((r) => r.path.includes(':userId'))) {
      const response = await send(
        route,
        { ...attackerData, userId: victimData.userId },
        attacker.headers,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'User not found', code: 'NOT_FOUND' });
    }
  });

  it("a second owner cannot reach the first owner's plan through their own application", async () => {
    const attackerData = await createFixture(attacker);
    const planRoutes = ownerRoutes.filter((r) => r.path.includes(':planId'));
    expect(planRoutes).toHaveLength(3);
    for (const route of planRoutes) {
      const response = await send(
        route,
        { ...attackerData, planId: victimData.planId },
        attacker.headers,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Plan not found', code: 'NOT_FOUND' });
    }
  });

  it("a second owner cannot reach the first owner's licence key or subscription through their own application", async () => {
    const attackerData = await createFixture(attacker);
    const licenseRoutes = ownerRoutes.filter((r) => r.path.includes(':licenseId'));
    expect(licenseRoutes).toHaveLength(5);
    for (const route of licenseRoutes) {
      const response = await send(
        route,
        { ...attackerData, licenseId: victimData.licenseId },
        attacker.headers,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Licence key not found', code: 'NOT_FOUND' });
    }
    // The attacker's own user, the victim's device: not found, and the device stays.
    const deviceRoute = ownerRoutes.find((r) => r.path.includes(':deviceId'))!;
    const releasedElsewhere = await send(
      deviceRoute,
      { ...attackerData, deviceId: victimData.deviceId },
      attacker.headers,
    );
    expect(releasedElsewhere.statusCode).toBe(404);
    expect(releasedElsewhere.json()).toEqual({ message: 'Device not found', code: 'NOT_FOUND' });
    const subscriptionRoutes = ownerRoutes.filter((r) => r.path.includes(':subscriptionId'));
    expect(subscriptionRoutes).toHaveLength(2);
    for (const route of subscriptionRoutes) {
      const response = await send(
        route,
        { ...attackerData, subscriptionId: victimData.subscriptionId },
        attacker.headers,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Subscription not found', code: 'NOT_FOUND' });
    }
    // The attacker's own plan may not be granted from (or generate into) the victim's plan id.
    const generated = await send(
      ownerRoutes.find((r) => r.method === 'POST' && r.path === '/api/applications/:id/licenses')!,
      { ...attackerData, planId: victimData.planId },
      attacker.headers,
    );
    expect(generated.statusCode).toBe(404);
    expect(generated.json()).toEqual({ message: 'Plan not found', code: 'NOT_FOUND' });
  });

  it("a second owner cannot reach the first owner's variables through their own application", async () => {
    const attackerData = await createFixture(attacker);
    const variableRoutes = ownerRoutes.filter((r) => r.path.includes(':variableId'));
    expect(variableRoutes).toHaveLength(2);
    for (const route of variableRoutes) {
      const response = await send(
        route,
        { ...attackerData, variableId: victimData.variableId },
        attacker.headers,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Variable not found', code: 'NOT_FOUND' });
    }
  });

  it.each(ownerRoutes.filter((route) => mutating(route.method)))(
    '$method $path: 403 for a foreign Origin, no Origin, or a cross-site or same-site fetch',
    async (route) => {
      const { origin: _origin, ...withoutOrigin } = victim.headers;
      for (const headers of [
        { ...victim.headers, origin: 'https://evil.example' },
        { ...victim.headers, origin: 'null' },
        withoutOrigin,
        { ...withoutOrigin, 'sec-fetch-site': 'none' },
        { ...victim.headers, 'sec-fetch-site': 'cross-site' },
        { ...victim.headers, 'sec-fetch-site': 'same-site' },
        // Sec-Fetch-Site vouches only when Origin is absent, never against a foreign one.
        { ...victim.headers, origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
      ]) {
        const response = await send(route, victimData, headers);
        expect(response.statusCode, JSON.stringify(headers)).toBe(403);
        expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
      }
    },
  );

  it.each(ownerRoutes)("$method $path: 403 with another account's x-account-id", async (route) => {
    const response = await send(route, victimData, {
      ...victim.headers,
      'x-account-id': attacker.accountId,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
  });

  it("left the first owner's data exactly as it was", async () => {
    expect(await snapshotOfVictim()).toEqual(before);
  });

  it.each(ownerRoutes.filter((route) => mutating(route.method)))(
    '$method $path: succeeds without Origin when Sec-Fetch-Site says same-origin',
    async (route) => {
      const fixture = await createFixture(victim);
      const { origin: _origin, ...withoutOrigin } = victim.headers;
      const response = await send(route, fixture, {
        ...withoutOrigin,
        'sec-fetch-site': 'same-origin',
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
    },
  );

  // Positive control: the same requests succeed for the owner, so the refusals above are
  // the guard and the scoping at work, not a wrong path or body in the table.
  it.each(ownerRoutes)('$method $path: succeeds for the owner', async (route) => {
    const fixture = await createFixture(victim);
    const response = await send(route, fixture, victim.headers);
    expect(response.statusCode, response.body).toBeLessThan(300);
  });
});
