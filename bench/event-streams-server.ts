/**
 * bench:streams's Latchkey server: the real app (buildApp) on the embedded database in a fresh
 * DATA_DIR, with STREAM_ACCOUNTS owner accounts and a console session each. Prints one JSON
 * line (port, pid, session tokens), then serves until SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { ownerAccounts, ownerSessions } from '../apps/server/src/db/schema/index.ts';
import { hashToken } from '../apps/server/src/lib/tokens.ts';
import { benchIdentity } from './bench-app.ts';

const ACCOUNTS = Number(process.env.STREAM_ACCOUNTS ?? 100);

const config = loadConfig();
const database = await openDatabase(config.database);
const { db } = database;
const sessionTokens: string[] = [];
for (let index = 0; index < ACCOUNTS; index += 1) {
  const [account] = await db
    .insert(ownerAccounts)
    .values({
      firebaseUid: `streams-${randomBytes(6).toString('hex')}`,
      email: `streams-${index}@example.com`,
      role: 'owner',
    })
    .returning();
  const token = randomBytes(32).toString('base64url');
  await db.insert(ownerSessions).values({
    accountId: account!.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + 24 * 3_600_000),
  });
  sessionTokens.push(token);
}

const app = await buildApp({
  config,
  database,
  identity: benchIdentity,
  isRetentionSweepEnabled: false,
  isWebhookDispatcherEnabled: false,
});
// The heap after a full collection (node --expose-gc): what the streams hold, without the noise
// of garbage not yet collected that the resident set carries.
app.get('/bench/memory', async () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
  return { heapUsed, external, arrayBuffers, rss };
});
// One `stats` event to every account, through the hub as a verb would publish it.
app.post('/bench/publish-to-all', async () => {
  for (const accountId of app.ownerEvents.subscribedAccounts()) {
    void app.ownerEvents.publish(accountId, { type: 'stats', data: { applicationId: 1 } });
  }
  return { ok: true };
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ port, pid: process.pid, sessionTokens })}\n`);

process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
