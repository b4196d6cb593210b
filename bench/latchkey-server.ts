/**
 * The benchmark's Latchkey server: the real app (buildApp) on the PostgreSQL database in
 * DATABASE_URL, seeded through the verbs and the database with one owner, one application,
 * BENCH_USERS end users (one shared password hash: hashing thousands would take minutes)
 * and a started session per user. Prints one JSON line with what the load generator needs,
 * then serves until SIGTERM. No identity service: the client API never uses it.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { appUserSessions, appUsers, ownerAccounts } from '../apps/server/src/db/schema/index.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { hashPassword } from '../apps/server/src/lib/password-hashing.ts';
import { hashToken } from '../apps/server/src/lib/tokens.ts';
import { createApplication } from '../apps/server/src/modules/applications/create-application.ts';

const USERS = Number(process.env.BENCH_USERS ?? 2000);
const PASSWORD = 'benchmark password';

const config = loadConfig();
if (config.database.kind !== 'postgres') throw new Error('the benchmark needs DATABASE_URL');
const database = await openDatabase(config.database);
const app = await buildApp({
  config,
  database,
  identity: {
    mode: 'firebase',
    verifyIdToken: async () => {
      throw new Error('owner sign-in is not part of the benchmark');
    },
    close: async () => {},
  },
});

const { db } = database;
const [account] = await db
  .insert(ownerAccounts)
  .values({ firebaseUid: `bench-${randomBytes(6).toString('hex')}`, email: 'bench@example.com' })
  .returning();
const application = await createApplication({
  ctx: {
    db,
    log: pino({ level: 'silent' }),
    clock: systemClock,
    account: account!,
    serverSecret: config.serverSecret,
  },
  input: { name: 'Benchmark', description: null },
});

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
  await db.insert(appUserSessions).values(
    inserted.map((user, index) => ({
      applicationId: application.id,
      appUserId: user.id,
      tokenHash: hashToken(sessionTokens[index]!),
    })),
  );
}

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(
  `${JSON.stringify({ port, apiKey: application.apiKey, version: application.version, password: PASSWORD, users, tokens })}\n`,
);

process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
