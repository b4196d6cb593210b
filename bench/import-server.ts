/**
 * bench:import's Latchkey server: the real app (buildApp) on PGlite (DATA_DIR) or on the
 * PostgreSQL database in DATABASE_URL, with one vendor, one application and a console session
 * seeded directly. Prints one JSON line with what the load script needs, then serves until
 * SIGTERM, finishing a running import first (app.close waits for it).
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
const database = await openDatabase(config.database);
const { db } = database;

const [account] = await db
  .insert(ownerAccounts)
  .values({
    firebaseUid: `import-bench-${randomBytes(6).toString('hex')}`,
    email: 'import-bench@example.com',
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
  input: { name: 'Import bench', description: null },
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
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(
  `${JSON.stringify({ port, sessionToken, applicationId: application.id, database: config.database.kind })}\n`,
);

process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
