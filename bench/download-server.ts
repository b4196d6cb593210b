/**
 * bench:download's Latchkey server: the real app (buildApp) on the PostgreSQL database in
 * DATABASE_URL, with one owner account, a console session and one application (seeded through
 * the verb and the database). Prints one JSON line (port, pid, session token, application id
 * and API key), then serves until SIGTERM. The owner's account id goes with the cookie.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { ownerAccounts, ownerSessions } from '../apps/server/src/db/schema/index.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { hashToken } from '../apps/server/src/lib/tokens.ts';
import { createApplication } from '../apps/server/src/modules/applications/create-application.ts';

const config = loadConfig();
if (config.database.kind !== 'postgres') throw new Error('the benchmark needs DATABASE_URL');
const database = await openDatabase(config.database);
const { db } = database;
const [account] = await db
  .insert(ownerAccounts)
  .values({
    firebaseUid: `download-${randomBytes(6).toString('hex')}`,
    email: 'download-bench@example.com',
    role: 'owner',
  })
  .returning();
const sessionToken = randomBytes(32).toString('base64url');
await db.insert(ownerSessions).values({
  accountId: account!.id,
  tokenHash: hashToken(sessionToken),
  expiresAt: new Date(Date.now() + 24 * 3_600_000),
});
const application = await createApplication({
  ctx: {
    db,
    log: pino({ level: 'silent' }),
    clock: systemClock,
    account: account!,
    serverSecret: config.serverSecret,
  },
  input: { name: 'Download benchmark', description: null },
});

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
  isRetentionSweepEnabled: false,
  isWebhookDispatcherEnabled: false,
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(
  `${JSON.stringify({
    port,
    pid: process.pid,
    sessionToken,
    accountId: account!.id,
    applicationId: application.id,
    apiKey: application.apiKey,
  })}\n`,
);

process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
