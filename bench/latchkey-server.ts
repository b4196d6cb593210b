/**
 * The benchmark's Latchkey server: the real app (buildApp) on the PostgreSQL database in
 * DATABASE_URL, seeded through the verbs and the database with one owner, one application,
 * BENCH_USERS end users (one shared password hash: hashing thousands would take minutes)
 * and a started session per user. Each user holds a subscription of a plan with two
 * entitlements (what verify answers for a licensing vendor), and the plan has
 * BENCH_REDEEM_KEYS keys for redemptions (one use each) and BENCH_KEY_LOGINS keys for key
 * logins. With BENCH_UPDATES_DAYS the plan also grants that many days of updates, and every
 * user's window is open (what login and verify pay for updates windows). With BENCH_METERS=1
 * the plan has a usage meter, `exports`, of an allowance no run uses up (what login and verify
 * pay for meters, and what meters/exports/use costs). With BENCH_FLOATING=1 the plan is floating
 * (BENCH_FLOATING_SEATS seats a holder, 60-minute leases): every login leases a seat, and every
 * seeded session holds one its heartbeats renew (what floating seats cost). A second
 * application has HWID lock on: its BENCH_LOCKED_USERS users each
 * have a bound device, so their logins take the device path (the stamp touches the device).
 * The first application answers KeyAuth's client libraries too (its owner id, name and secret
 * are printed).
 * Prints one JSON line with what the load generator needs, then serves until SIGTERM.
 * No identity service: the client API never uses it.
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { createPlanRequestSchema, generateLicensesRequestSchema } from '@latchkey/contracts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import {
  appUserDevices,
  appUserSessions,
  appUsers,
  applications,
  ownerAccounts,
  seatLeases,
  subscriptions,
} from '../apps/server/src/db/schema/index.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { hashPassword } from '../apps/server/src/lib/password-hashing.ts';
import { hashToken } from '../apps/server/src/lib/tokens.ts';
import { createApplication } from '../apps/server/src/modules/applications/create-application.ts';
import {
  generateKeyauthSecret,
  sealKeyauthSecret,
} from '../apps/server/src/modules/applications/keyauth-secret.ts';
import { generateLicenses } from '../apps/server/src/modules/licenses/generate-licenses.ts';
import { createPlan } from '../apps/server/src/modules/plans/create-plan.ts';
import { benchIdentity } from './bench-app.ts';

const USERS = Number(process.env.BENCH_USERS ?? 2000);
const REDEEM_KEYS = Number(process.env.BENCH_REDEEM_KEYS ?? 10_000);
const KEY_LOGINS = Number(process.env.BENCH_KEY_LOGINS ?? 2000);
const LOCKED_USERS = Number(process.env.BENCH_LOCKED_USERS ?? 200);
const UPDATES_DAYS = process.env.BENCH_UPDATES_DAYS ? Number(process.env.BENCH_UPDATES_DAYS) : null;
const METERS = process.env.BENCH_METERS === '1';
const FLOATING = process.env.BENCH_FLOATING === '1';
/** Enough that no run's logins fill a holder's seats: each login leases one for the hour. */
const FLOATING_SEATS = Number(process.env.BENCH_FLOATING_SEATS ?? 1000);
const LEASE_MINUTES = 60;
const PASSWORD = 'benchmark password';
/**
 * `1`: the application requires verified addresses, and every seeded user has confirmed
 * theirs, so the calls pay the check and still succeed (the setting's cost, off against on).
 */
const REQUIRE_VERIFIED_EMAIL = process.env.BENCH_REQUIRE_VERIFIED_EMAIL === '1';

const config = loadConfig();
if (config.database.kind !== 'postgres') throw new Error('the benchmark needs DATABASE_URL');
const database = await openDatabase(config.database);
const app = await buildApp({
  config,
  database,
  identity: benchIdentity,
});

const { db } = database;
const [account] = await db
  .insert(ownerAccounts)
  .values({ firebaseUid: `bench-${randomBytes(6).toString('hex')}`, email: 'bench@example.com' })
  .returning();
const ownerContext = {
  db,
  log: pino({ level: 'silent' }),
  clock: systemClock,
  account: account!,
  serverSecret: config.serverSecret,
  // Seeded by the benchmark itself, as a console owner would.
  actor: { token: null, ipAddress: '127.0.0.1' },
};
const application = await createApplication({
  ctx: ownerContext,
  input: { name: 'Benchmark', description: null },
});
const plan = await createPlan({
  ctx: ownerContext,
  input: {
    applicationId: application.id,
    plan: createPlanRequestSchema.parse({
      name: 'Pro',
      durationDays: 30,
      entitlements: ['PRO', 'EXPORT_PDF'],
      updatesForDays: UPDATES_DAYS,
      meters: METERS
        ? [{ name: 'exports', allowance: 1_000_000_000_000, resetEvery: 'month' }]
        : [],
      ...(FLOATING ? { floating: true, seats: FLOATING_SEATS, leaseMinutes: LEASE_MINUTES } : {}),
    }),
  },
});

/** Keys of the plan, generated by the verb (at most 10,000 a request, as the API allows). */
async function generateKeys(count: number): Promise<string[]> {
  const keys: string[] = [];
  while (keys.length < count) {
    const generated = await generateLicenses({
      ctx: ownerContext,
      input: {
        applicationId: application.id,
        request: generateLicensesRequestSchema.parse({
          planId: plan.id,
          count: Math.min(10_000, count - keys.length),
        }),
      },
      // No emailTo here: nothing is mailed.
      mail: { isAvailable: false, wake: () => {} },
    });
    keys.push(...generated.keys.map((each) => each.key));
  }
  return keys;
}
// KeyAuth's client libraries reach this application too (/api/1.2/, /api/1.3/).
const keyauth = { ownerId: 'BenchOwn01', name: 'Benchmark', secret: generateKeyauthSecret() };
await db
  .update(applications)
  .set({
    keyauthCompatibility: true,
    keyauthOwnerId: keyauth.ownerId,
    keyauthName: keyauth.name,
    keyauthSecretSealed: sealKeyauthSecret(keyauth.secret, config.serverSecret),
  })
  .where(eq(applications.id, application.id));
const redeemKeys = await generateKeys(REDEEM_KEYS);
const loginKeys = await generateKeys(KEY_LOGINS);

if (REQUIRE_VERIFIED_EMAIL) {
  await db
    .update(applications)
    .set({ requireVerifiedEmail: true })
    .where(eq(applications.id, application.id));
}

const passwordHash = await hashPassword(PASSWORD);
const users: { id: string; username: string }[] = [];
const tokens: string[] = [];
const now = new Date();
for (let start = 0; start < USERS; start += 500) {
  const batch = Array.from({ length: Math.min(500, USERS - start) }, (_, index) => ({
    applicationId: application.id,
    username: `bench-user-${start + index}`,
    passwordHash,
    lastLogin: now,
    ...(REQUIRE_VERIFIED_EMAIL
      ? { email: `bench-user-${start + index}@example.com`, emailVerifiedAt: now }
      : {}),
  }));
  const inserted = await db
    .insert(appUsers)
    .values(batch)
    .returning({ id: appUsers.id, username: appUsers.username });
  users.push(...inserted);
  const sessionTokens = inserted.map(
    () => `sess_${randomBytes(16).toString('hex')}_${Math.floor(now.getTime() / 1000)}`,
  );
  tokens.push(...sessionTokens);
  await db.insert(subscriptions).values(
    inserted.map((user) => ({
      applicationId: application.id,
      appUserId: user.id,
      planId: plan.id,
      expiresAt: new Date(now.getTime() + 30 * 86_400_000),
      updatesUntil:
        UPDATES_DAYS === null ? null : new Date(now.getTime() + UPDATES_DAYS * 86_400_000),
    })),
  );
  await db.insert(appUserSessions).values(
    inserted.map((user, index) => ({
      applicationId: application.id,
      appUserId: user.id,
      tokenHash: hashToken(sessionTokens[index]!),
    })),
  );
  if (FLOATING) {
    // The seat each seeded session's login would have leased.
    await db.insert(seatLeases).values(
      inserted.map((user, index) => ({
        applicationId: application.id,
        appUserId: user.id,
        tokenHash: hashToken(sessionTokens[index]!),
        leaseMinutes: LEASE_MINUTES,
        expiresAt: new Date(now.getTime() + LEASE_MINUTES * 60_000),
        createdAt: now,
      })),
    );
  }
}

// The HWID-locked application: two seats, each user with one bound device.
const lockedApplication = await createApplication({
  ctx: ownerContext,
  input: { name: 'Benchmark (HWID lock)', description: null },
});
await db
  .update(applications)
  .set({ hwidLockEnabled: true, maxDevices: 2 })
  .where(eq(applications.id, lockedApplication.id));
const lockedUsers: { username: string; hwid: string }[] = [];
for (let start = 0; start < LOCKED_USERS; start += 500) {
  const batch = Array.from({ length: Math.min(500, LOCKED_USERS - start) }, (_, index) => ({
    applicationId: lockedApplication.id,
    username: `bench-locked-${start + index}`,
    passwordHash,
    hwid: `bench-hwid-${start + index}`,
    deviceCount: 1,
  }));
  const inserted = await db
    .insert(appUsers)
    .values(batch)
    .returning({ id: appUsers.id, username: appUsers.username, hwid: appUsers.hwid });
  await db.insert(appUserDevices).values(
    inserted.map((user) => ({
      applicationId: lockedApplication.id,
      appUserId: user.id,
      hwid: user.hwid!,
    })),
  );
  lockedUsers.push(...inserted.map((user) => ({ username: user.username, hwid: user.hwid! })));
}
const locked = { apiKey: lockedApplication.apiKey, users: lockedUsers };

// A production database has statistics; a freshly seeded one has none until autovacuum comes.
// Without them the first plans of the hot statements are made from guesses, and a prepared
// statement whose first custom plans looked cheaper than its generic one is planned again on
// every call for a long while: the run would measure the planner, not the calls.
await db.execute(sql`analyze`);

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(
  `${JSON.stringify({ port, apiKey: application.apiKey, publicKey: application.signingPublicKey, version: application.version, password: PASSWORD, users, tokens, redeemKeys, loginKeys, locked, keyauth })}\n`,
);

process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
