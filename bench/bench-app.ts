/**
 * What the bench servers share: one owner with a console session and one application, seeded
 * through the verb and the database; the app with owner sign-in switched off (no benchmark
 * signs in through Firebase); and serving until SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from '../apps/server/src/config.ts';
import type { DatabaseConnection } from '../apps/server/src/db/client.ts';
import { ownerAccounts, ownerSessions } from '../apps/server/src/db/schema/index.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { hashToken } from '../apps/server/src/lib/tokens.ts';
import { createApplication } from '../apps/server/src/modules/applications/create-application.ts';

/** buildApp's identity for a benchmark: owner sign-in is refused, sessions are seeded. */
export const benchIdentity = {
  mode: 'firebase' as const,
  verifyIdToken: async (): Promise<never> => {
    throw new Error('owner sign-in is not part of the benchmark');
  },
  close: async () => {},
};

/** An owner account (`label` names it), a day-long console session and one application. */
export async function seedOwnerWithApplication(
  database: DatabaseConnection,
  config: Config,
  label: string,
) {
  const { db } = database;
  const [account] = await db
    .insert(ownerAccounts)
    .values({
      firebaseUid: `${label}-${randomBytes(6).toString('hex')}`,
      email: `${label}-bench@example.com`,
      role: 'owner',
    })
    .returning();
  if (!account) throw new Error('the owner account was not created');
  const sessionToken = randomBytes(32).toString('base64url');
  await db.insert(ownerSessions).values({
    accountId: account.id,
    tokenHash: hashToken(sessionToken),
    expiresAt: new Date(Date.now() + 24 * 3_600_000),
  });
  const application = await createApplication({
    ctx: {
      db,
      log: pino({ level: 'silent' }),
      clock: systemClock,
      account,
      serverSecret: config.serverSecret,
      // Seeded by the benchmark itself, as a console owner would.
      actor: { token: null, ipAddress: '127.0.0.1' },
    },
    input: { name: `${label} benchmark`, description: null },
  });
  return { account, sessionToken, application };
}

/**
 * Listens on a free loopback port, prints `info` and the port as one JSON line (what the load
 * script waits for), then serves until SIGTERM.
 */
export async function serveUntilSigterm(
  app: FastifyInstance,
  database: DatabaseConnection,
  info: Record<string, unknown>,
): Promise<void> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port, ...info })}\n`);
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
