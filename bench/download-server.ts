/**
 * bench:download's Latchkey server: the real app (buildApp) on the PostgreSQL database in
 * DATABASE_URL, with one owner account, a console session and one application (seeded through
 * the verb and the database). Prints one JSON line (port, pid, session token, application id
 * and API key), then serves until SIGTERM. The owner's account id goes with the cookie.
 */
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { benchIdentity, seedOwnerWithApplication, serveUntilSigterm } from './bench-app.ts';

const config = loadConfig();
if (config.database.kind !== 'postgres') throw new Error('the benchmark needs DATABASE_URL');
const database = await openDatabase(config.database);
const { account, sessionToken, application } = await seedOwnerWithApplication(
  database,
  config,
  'download',
);
const app = await buildApp({
  config,
  database,
  identity: benchIdentity,
  isRetentionSweepEnabled: false,
  isWebhookDispatcherEnabled: false,
});
await serveUntilSigterm(app, database, {
  pid: process.pid,
  sessionToken,
  accountId: account.id,
  applicationId: application.id,
  apiKey: application.apiKey,
});
