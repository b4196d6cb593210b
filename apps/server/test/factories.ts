import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import {
  appUserSchema,
  applicationSchema,
  defaultApplicationMessages,
  generatedLicensesSchema,
  planSchema,
  subscriptionListSchema,
  webhookSchema,
  type AppUser,
  type Application,
  type CreateAppUserRequest,
  type CreateApplicationRequest,
  type CreatePlanRequest,
  type GeneratedLicenses,
  type GenerateLicensesRequest,
  type GrantSubscriptionRequest,
  type Subscription,
  type CreateWebhookRequest,
  type Plan,
  type Webhook,
  apiTokenScopes,
  createdApiTokenSchema,
  type CreateApiTokenRequest,
  type CreatedApiToken,
} from '@latchkey/contracts';
import type { Database } from '../src/db/client.ts';
import {
  activityLogs,
  applications,
  appUserDevices,
  appUserSessions,
  appUsers,
  blacklistEntries,
  ownerAccounts,
  ownerSessions,
  webhookDeliveries,
} from '../src/db/schema/index.ts';
import { createApiKey } from '../src/lib/api-keys.ts';
import { hashPassword } from '../src/lib/password-hashing.ts';
import { generateSigningKeyPair } from '../src/lib/signing-keys.ts';
import { hashToken } from '../src/lib/tokens.ts';
import type { SignedInOwner, TestApp } from './test-app.ts';

/**
 * Direct inserts for tests that need rows to exist but are not about how they are made.
 * Key material here is placeholder text: nothing in these tests signs or verifies.
 */
export async function insertApplication(
  db: Database,
  ownerAccountId: string,
  overrides: Partial<typeof applications.$inferInsert> = {},
) {
  const [row] = await db
    .insert(applications)
    .values({
      ownerAccountId,
      name: 'Test App',
      apiKey: createApiKey(),
      ...defaultApplicationMessages,
      signingPublicKey: '00'.repeat(32),
      signingPrivateKeyEncrypted: 'placeholder',
      ...overrides,
    })
    .returning();
  return row!;
}

/** An end user; a `hwid` given is their one device, as the owner API would bind it. */
export async function insertAppUser(
  db: Database,
  applicationId: number,
  overrides: Partial<typeof appUsers.$inferInsert> = {},
) {
  const { hwid, ...values } = overrides;
  const [row] = await db
    .insert(appUsers)
    .values({
      applicationId,
      username: `user_${randomBytes(4).toString('hex')}`,
      passwordHash: 'not-a-real-hash',
      ...values,
      ...(hwid ? { hwid, deviceCount: 1 } : {}),
    })
    .returning();
  if (hwid) {
    await db.insert(appUserDevices).values({ applicationId, appUserId: row!.id, hwid });
  }
  return row!;
}

export async function insertAppUserSession(
  db: Database,
  input: { applicationId: number; appUserId: string; lastHeartbeatAt: Date; endedAt?: Date | null },
) {
  const [row] = await db
    .insert(appUserSessions)
    .values({ ...input, tokenHash: randomBytes(32).toString('hex') })
    .returning();
  return row!;
}

export async function insertActivityLog(
  db: Database,
  input: {
    applicationId: number;
    event: string;
    success: boolean;
    appUserId?: string | null;
    username?: string | null;
    createdAt?: Date;
  },
) {
  const [row] = await db.insert(activityLogs).values(input).returning();
  return row!;
}

export async function insertBlacklistEntry(
  db: Database,
  input: {
    ownerAccountId: string;
    applicationId?: number | null;
    type?: 'ip' | 'username' | 'email' | 'hwid';
    value?: string;
  },
) {
  const [row] = await db
    .insert(blacklistEntries)
    .values({ type: 'ip', value: '203.0.113.7', ...input })
    .returning();
  return row!;
}

/**
 * A delivery-log row of a webhook, as the engine would have left it (pending and due unless
 * overridden). The payload is a minimal valid event; nothing here sends it.
 */
export async function insertWebhookDelivery(
  db: Database,
  webhookId: number,
  overrides: Partial<typeof webhookDeliveries.$inferInsert> = {},
) {
  const event = overrides.event ?? 'user_login';
  const [row] = await db
    .insert(webhookDeliveries)
    .values({
      webhookId,
      event,
      payload: {
        type: event,
        timestamp: new Date().toISOString(),
        data: {
          application: { id: 1, name: 'Test App' },
          user: { id: null, username: 'someone' },
          success: event === 'user_login',
          ipAddress: '203.0.113.9',
          hwid: null,
          version: '1.0.0',
          message: null,
          activityLogId: null,
        },
      },
      ...overrides,
    })
    .returning();
  return row!;
}

/**
 * The site's owner, signed in without the identity emulator, and a client application of
 * theirs: for real servers in other processes, whose Firebase project is not the emulator's.
 * The session row answers the cookie `latchkey_session=<sessionToken>` for an hour; the
 * application's signing key is sealed with `serverSecret`, the servers' own.
 */
export async function insertOwnerSessionAndApplication(
  db: Database,
  input: { firebaseUid: string; email: string; sessionToken: string; serverSecret: string },
) {
  const [owner] = await db
    .insert(ownerAccounts)
    .values({ firebaseUid: input.firebaseUid, email: input.email, role: 'owner' })
    .returning();
  await db.insert(ownerSessions).values({
    accountId: owner!.id,
    tokenHash: hashToken(input.sessionToken),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  const application = await insertApplication(
    db,
    owner!.id,
    generateSigningKeyPair(input.serverSecret),
  );
  return { owner: owner!, application };
}

/** Creates an application the way the console does, through POST /api/applications. */
export async function createApplicationViaApi(
  app: FastifyInstance,
  owner: SignedInOwner,
  body: CreateApplicationRequest = { name: `App ${randomBytes(3).toString('hex')}` },
): Promise<Application> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/applications',
    headers: owner.headers,
    payload: body,
  });
  if (response.statusCode !== 201) throw new Error(`create application: ${response.body}`);
  return applicationSchema.parse(response.json());
}

/** Creates a management API token the way the API Tokens page does (all scopes by default). */
export async function createApiTokenViaApi(
  app: FastifyInstance,
  owner: SignedInOwner,
  body: Partial<CreateApiTokenRequest> = {},
): Promise<CreatedApiToken> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/api-tokens',
    headers: owner.headers,
    payload: { name: 'Shop', scopes: [...apiTokenScopes], ...body },
  });
  if (response.statusCode !== 201) throw new Error(`create API token: ${response.body}`);
  return createdApiTokenSchema.parse(response.json());
}

/** Creates a webhook the way the console does, through POST /api/webhooks (to a public address). */
export async function createWebhookViaApi(
  app: FastifyInstance,
  owner: SignedInOwner,
  body: Partial<CreateWebhookRequest> = {},
): Promise<Webhook> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/webhooks',
    headers: owner.headers,
    payload: { url: 'https://93.184.215.14/hooks/latchkey', events: ['user_login'], ...body },
  });
  if (response.statusCode !== 201) throw new Error(`create webhook: ${response.body}`);
  return webhookSchema.parse(response.json());
}

/** Creates a plan the way the console will, through POST /api/applications/:id/plans. */
export async function createPlanViaApi(
  app: FastifyInstance,
  owner: SignedInOwner,
  applicationId: number,
  body: Partial<CreatePlanRequest> = {},
): Promise<Plan> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/applications/${applicationId}/plans`,
    headers: owner.headers,
    payload: { name: `Plan ${randomBytes(3).toString('hex')}`, ...body },
  });
  if (response.statusCode !== 201) throw new Error(`create plan: ${response.body}`);
  return planSchema.parse(response.json());
}

/** Generates licence keys of a plan through POST /api/applications/:id/licenses. */
export async function generateLicensesViaApi(
  app: FastifyInstance,
  owner: SignedInOwner,
  applicationId: number,
  body: Partial<GenerateLicensesRequest> & { planId: string },
): Promise<GeneratedLicenses['keys']> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/applications/${applicationId}/licenses`,
    headers: owner.headers,
    payload: { count: 1, ...body },
  });
  if (response.statusCode !== 201) throw new Error(`generate licences: ${response.body}`);
  return generatedLicensesSchema.parse(response.json()).keys;
}

/** Grants a plan to an end user through POST …/users/:userId/subscriptions. */
export async function grantSubscriptionViaApi(
  app: FastifyInstance,
  owner: SignedInOwner,
  ids: { applicationId: number; userId: string },
  body: GrantSubscriptionRequest,
): Promise<Subscription[]> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/applications/${ids.applicationId}/users/${ids.userId}/subscriptions`,
    headers: owner.headers,
    payload: body,
  });
  if (response.statusCode !== 201) throw new Error(`grant subscription: ${response.body}`);
  return subscriptionListSchema.parse(response.json());
}

/** Creates an end user the way the console does, through POST /api/applications/:id/users. */
export async function createAppUserViaApi(
  app: FastifyInstance,
  owner: SignedInOwner,
  applicationId: number,
  body: Partial<CreateAppUserRequest> = {},
): Promise<AppUser> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/applications/${applicationId}/users`,
    headers: owner.headers,
    payload: {
      username: `user_${randomBytes(4).toString('hex')}`,
      password: 'correct horse battery staple',
      ...body,
    },
  });
  if (response.statusCode !== 201) throw new Error(`create app user: ${response.body}`);
  return appUserSchema.parse(response.json());
}

/**
 * A plan and an end user holding it, through the owner API: the plan created with `plan`, the
 * user with `user`, then granted the plan by hand.
 */
export async function createPlanHolderViaApi(
  app: FastifyInstance,
  owner: SignedInOwner,
  applicationId: number,
  {
    plan: planBody = {},
    user: userBody = {},
  }: {
    plan?: Partial<CreatePlanRequest>;
    user?: Partial<CreateAppUserRequest>;
  } = {},
): Promise<{ plan: Plan; user: AppUser }> {
  const plan = await createPlanViaApi(app, owner, applicationId, planBody);
  const user = await createAppUserViaApi(app, owner, applicationId, userBody);
  await grantSubscriptionViaApi(
    app,
    owner,
    { applicationId, userId: user.id },
    { planId: plan.id },
  );
  return { plan, user };
}

/**
 * An application the client API can serve: a real Ed25519 key pair encrypted with this test
 * app's server secret (insertApplication's placeholder key cannot sign).
 */
export async function insertClientApplication(
  testApp: TestApp,
  ownerAccountId: string,
  overrides: Partial<typeof applications.$inferInsert> = {},
) {
  return insertApplication(testApp.database.db, ownerAccountId, {
    ...generateSigningKeyPair(testApp.config.serverSecret),
    ...overrides,
  });
}

const passwordHashes = new Map<string, Promise<string>>();

/** An end user who can log in with `password` (hashes are memoised: argon2 is slow on purpose). */
export async function insertAppUserWithPassword(
  db: Database,
  applicationId: number,
  password: string,
  overrides: Partial<typeof appUsers.$inferInsert> = {},
) {
  let passwordHash = passwordHashes.get(password);
  if (!passwordHash) {
    passwordHash = hashPassword(password);
    passwordHashes.set(password, passwordHash);
  }
  return insertAppUser(db, applicationId, { passwordHash: await passwordHash, ...overrides });
}

/** A call to the public client API as a desktop client makes it, from 127.0.0.2 by default. */
export function callClientApi(
  app: FastifyInstance,
  path: string,
  options: {
    apiKey?: string;
    body?: unknown;
    method?: 'GET' | 'POST';
    nonce?: string;
    remoteAddress?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers['x-api-key'] = options.apiKey;
  if (options.nonce !== undefined) headers['x-request-nonce'] = options.nonce;
  return app.inject({
    method: options.method ?? 'POST',
    url: path.startsWith('/api/') ? path : `/api/v1/${path}`,
    remoteAddress: options.remoteAddress ?? '127.0.0.2',
    headers,
    ...(options.body === undefined ? {} : { payload: options.body as InjectOptions['payload'] }),
  });
}
