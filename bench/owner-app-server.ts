/**
 * The Latchkey server of the benches that drive the owner's side (bench:import, bench:shops):
 * the real app (buildApp) on PGlite (DATA_DIR) or on the PostgreSQL database in DATABASE_URL,
 * with one owner, a console session and one application. Prints one JSON line with what the
 * load script needs, then serves until SIGTERM, finishing a running import first (app.close
 * waits for it).
 */
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { benchIdentity, seedOwnerWithApplication, serveUntilSigterm } from './bench-app.ts';

const config = loadConfig();
const database = await openDatabase(config.database);
const { sessionToken, application } = await seedOwnerWithApplication(database, config, 'owner-app');
const app = await buildApp({
  config,
  database,
  identity: benchIdentity,
  isRetentionSweepEnabled: false,
});
await serveUntilSigterm(app, database, {
  sessionToken,
  applicationId: application.id,
  database: config.database.kind,
});
