/**
 * bench:scale's Latchkey server: the real app (buildApp) on the PostgreSQL database in
 * DATABASE_URL, seeded in SQL with one vendor at scale (SCALE_USERS end users in one
 * application, SCALE_LOGS activity rows, SCALE_BLACKLIST blacklist entries, SCALE_SESSIONS
 * live sessions) and a console session for that vendor. Prints one JSON line with what the
 * load generator needs, then serves until SIGTERM.
 *
 * A request sent with `x-bench-explain: 1` is answered as usual, and then every SELECT the
 * ORM ran for it is explained (EXPLAIN (ANALYZE, BUFFERS)) into SCALE_PLANS_FILE: the plans
 * of the console's real queries, not of copies that could drift from them.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { ownerAccounts, ownerSessions } from '../apps/server/src/db/schema/index.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { hashPassword } from '../apps/server/src/lib/password-hashing.ts';
import { hashToken } from '../apps/server/src/lib/tokens.ts';
import { foldCounterDeltas } from '../apps/server/src/modules/activity/fold-counter-deltas.ts';
import { createApplication } from '../apps/server/src/modules/applications/create-application.ts';
import { sealLicenseKey } from '../apps/server/src/modules/licenses/license-key-secrets.ts';
import { activityLogPartitionDays } from '../apps/server/src/modules/retention/activity-log-partitions.ts';
import { sweepExpiredRows } from '../apps/server/src/modules/retention/sweep-expired-rows.ts';
import { benchIdentity } from './bench-app.ts';
import { postgresCpuUs, postgresPids } from './process-cpu.mjs';

const USERS = Number(process.env.SCALE_USERS ?? 100_000);
const LOGS = Number(process.env.SCALE_LOGS ?? 1_000_000);
const BLACKLIST = Number(process.env.SCALE_BLACKLIST ?? 10_000);
const SESSIONS = Number(process.env.SCALE_SESSIONS ?? 2_000);
const KEYS = Number(process.env.SCALE_KEYS ?? 1_000_000);
const PLANS_FILE = process.env.SCALE_PLANS_FILE ?? '';
/** Days of rows seeded past the retention, at the rate of the rest, for the sweep to drop. */
const EXPIRED_DAYS = Number(process.env.SCALE_EXPIRED_DAYS ?? 30);
const EXPIRED_LOGS = Math.round((LOGS / 80) * EXPIRED_DAYS);
const SEED_PARTITIONS = process.env.SCALE_SEED_PARTITIONS !== '0';
const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = 'benchmark password';

const config = loadConfig();
if (config.database.kind !== 'postgres') throw new Error('bench:scale needs DATABASE_URL');
const RETENTION_DAYS = config.retention.activityLogMs / DAY_MS;

let recording: Array<{ query: string; params: unknown[] }> | null = null;
const database = await openDatabase(config.database, undefined, (query, params) => {
  recording?.push({ query, params });
});
const { db } = database;
const log = (message: string) => process.stderr.write(`${message}\n`);

const [account] = await db
  .insert(ownerAccounts)
  .values({
    firebaseUid: `scale-${randomBytes(6).toString('hex')}`,
    email: 'scale@example.com',
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
    // Seeded by the benchmark itself, as a console owner would.
    actor: { token: null, ipAddress: '127.0.0.1' },
  },
  input: { name: 'Scale', description: null },
});

const sql = (text: string, values: unknown[] = []) => database.query({ text, values });
const passwordHash = await hashPassword(PASSWORD);
const seedStartedAt = Date.now();
log(`Seeding ${USERS} end users...`);
// Every 50th user paused, every 40th expired, the rest active; created over the last year.
await sql(
  `insert into app_users (application_id, username, email, password_hash, is_paused, expires_at, last_login, created_at)
   select $1, 'user-' || i, 'user-' || i || '@example.com', $2, i % 50 = 0,
          case when i % 40 = 0 then now() - interval '1 day' else null end,
          now() - (i % 1000) * interval '1 hour', now() - (i % 365) * interval '1 day'
   from generate_series(1, $3::int) as i`,
  [application.id, passwordHash, USERS],
);
log(`Seeding ${LOGS} activity rows, and ${EXPIRED_LOGS} more past the retention...`);
// The log's partitions for every seeded day, as the retention sweep would have made them.
// Without (SCALE_SEED_PARTITIONS=0) every seeded row sits in the default partition, and the
// sweep deletes the expired ones row by row, as it did before the log was partitioned.
if (SEED_PARTITIONS)
  await sql(
    `select create_activity_log_partitions(now() - ($1::int + $2::int) * interval '1 day', now(), $3)`,
    [RETENTION_DAYS + 1, EXPIRED_DAYS, activityLogPartitionDays(config.retention.activityLogMs)],
  );
// Spread over the last 80 days (inside the default 90-day retention); a realistic mix of
// events, each naming one of the users. Then EXPIRED_DAYS more days at the same rate, each
// wholly past the retention, for the sweep to take.
const seedLogs = `insert into activity_logs (application_id, username, event, success, ip_address, created_at)
   select $1, 'user-' || (1 + i % $3::int),
          (array['user_login','user_login','user_login','login_failed','user_register','session_start','session_end'])[1 + i % 7],
          i % 7 <> 3, '203.0.113.' || (i % 250),
          $4::timestamptz - (i::float8 / $2::int) * $5::int * interval '1 day'
   from generate_series(1, $2::int) as i`;
await sql(seedLogs, [application.id, LOGS, USERS, new Date().toISOString(), 80]);
const expiredFrom = new Date(Date.now() - (RETENTION_DAYS + 1) * DAY_MS);
await sql(seedLogs, [application.id, EXPIRED_LOGS, USERS, expiredFrom.toISOString(), EXPIRED_DAYS]);
// The seed above queued its counter deltas; folded as the server's counter fold would. Then
// the session starts and an hourly live-session sample for each of the last 31 days' hours.
log('Folding the counter deltas...');
await foldCounterDeltas(db);
await sql(
  `insert into session_start_hourly_counts (application_id, hour, session_count)
   select $1, date_trunc('hour', now(), 'UTC') - h * interval '1 hour', h % 5
   from generate_series(0, 743) as h
   on conflict do nothing`,
  [application.id],
);
await sql(
  `insert into live_session_samples (application_id, hour, live_sessions)
   select $1, date_trunc('hour', now(), 'UTC') - h * interval '1 hour', 1500 + h % 500
   from generate_series(0, 743) as h
   on conflict do nothing`,
  [application.id],
);
log(`Seeding ${BLACKLIST} blacklist entries and ${SESSIONS} live sessions...`);
await sql(
  `insert into blacklist_entries (owner_account_id, application_id, type, value, reason, created_at)
   select $1::uuid, case when i % 2 = 0 then $2::int else null end,
          (array['ip','username','hwid','email'])[1 + i % 4],
          case i % 4 when 0 then '198.51.' || (i / 250) || '.' || (i % 250)
                     when 1 then 'banned-' || i
                     when 2 then 'HWID-' || md5(i::text)
                     else 'banned-' || i || '@example.com' end,
          'seeded', now() - i * interval '1 minute'
   from generate_series(1, $3::int) as i`,
  [account!.id, application.id, BLACKLIST],
);
await sql(
  `insert into app_user_sessions (application_id, app_user_id, token_hash, last_heartbeat_at)
   select $1, id, md5(random()::text || id::text), now()
   from app_users where application_id = $1 order by username limit $2`,
  [application.id, SESSIONS],
);
log(`Seeding ${KEYS} licence keys (a third used) and their users' subscriptions...`);
// Each key has its own digest and suffix; they share one sealed text (a real key sealed with
// this server's secret), which costs an export exactly what a million different ones would:
// one AES-GCM opening per row. Used keys belong to the first users in turn.
const {
  rows: [plan],
} = await sql(
  `insert into plans (application_id, name, duration_days, entitlements)
   values ($1, 'Pro', 30, '{PRO,EXPORT_PDF}') returning id`,
  [application.id],
);
await sql(
  `create temporary table numbered_users as
   select id, row_number() over (order by username) as n from app_users where application_id = $1`,
  [application.id],
);
await sql(
  `insert into subscriptions (application_id, app_user_id, plan_id, expires_at)
   select $1, u.id, $2, now() + interval '30 days' from numbered_users u where u.n <= $3`,
  [application.id, plan!.id, Math.ceil(KEYS / 3)],
);
await sql(
  `insert into license_keys (application_id, plan_id, key_digest, key_sealed, display, key_suffix,
                             state, note, used_by_user_id, used_at, granted_days, created_at)
   select $1, $2, md5('key-' || i) || md5('digest-' || i), $3,
          '•••••-•••••-•••••-•••••-•' || upper(substr(md5('suffix-' || i), 1, 4)),
          substr(md5('suffix-' || i), 1, 4),
          case when i % 3 = 0 then 'used' else 'unused' end,
          'batch ' || (i / 10000),
          case when i % 3 = 0 then u.id end,
          case when i % 3 = 0 then now() - (i % 1000) * interval '1 hour' end,
          case when i % 3 = 0 then 30 end,
          now() - (i::float8 / $4::int) * interval '200 days'
   from generate_series(1, $4::int) as i
   left join numbered_users u on u.n = 1 + (i / 3) % $5::int`,
  [
    application.id,
    plan!.id,
    sealLicenseKey('BENCH-KEY0-KEY0-KEY0-KEY0', config.serverSecret),
    KEYS,
    Math.max(1, Math.ceil(KEYS / 3)),
  ],
);
const { rows: keyHolders } = await sql(`select id from numbered_users where n = 1`);
await foldCounterDeltas(db);
// As autovacuum leaves a table in steady use: statistics current, the visibility map set
// (which index-only scans need). A bulk load has neither until autovacuum comes round.
await sql('vacuum analyze');
log(`Seeded in ${((Date.now() - seedStartedAt) / 1000).toFixed(0)} s.`);

// The retention sweep of the expired days, as the server's would run it, without pauses: its
// time is the database's (each statement waits for PostgreSQL).
log(`Sweeping ${EXPIRED_DAYS} days past the retention...`);
// PostgreSQL's CPU besides: a statement run by parallel workers takes less time than CPU.
// Null when PostgreSQL runs on another machine (no process of it here).
const isPostgresHere = postgresPids().length > 0;
const sweepCpuStartUs = postgresCpuUs();
const sweepStartedAt = performance.now();
const swept = await sweepExpiredRows({
  ctx: { db, database, clock: systemClock, log: pino({ level: 'silent' }) },
  input: {
    sessionMs: config.retention.sessionMs,
    activityLogMs: config.retention.activityLogMs,
    batchSize: 1000,
    pauseMs: 0,
  },
});
const retentionSweep = {
  ms: performance.now() - sweepStartedAt,
  postgresCpuMs: isPostgresHere ? (postgresCpuUs() - sweepCpuStartUs) / 1000 : null,
  rows: swept?.activityLogsDeleted ?? 0,
  partitions: swept?.activityLogPartitionsDropped ?? 0,
};

const app = await buildApp({
  config,
  database,
  identity: benchIdentity,
  isRetentionSweepEnabled: false,
});
app.addHook('onRequest', async (request) => {
  if (request.headers['x-bench-explain'] === '1') recording = [];
});
app.addHook('onResponse', async (request) => {
  if (request.headers['x-bench-explain'] !== '1' || !recording) return;
  const queries = recording;
  recording = null;
  for (const { query, params } of queries) {
    // A union (the activity charts) starts with its first part's parenthesis.
    if (!/^[\s(]*(select|with)\b/i.test(query)) continue;
    const { rows } = await database.query({
      text: `explain (analyze, buffers, costs off) ${query}`,
      values: params,
    });
    const plan = rows.map((row) => String(row['QUERY PLAN'])).join('\n');
    if (PLANS_FILE) {
      appendFileSync(PLANS_FILE, `### ${request.method} ${request.url}\n${query}\n${plan}\n\n`);
    }
  }
});

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const { rows: sample } = await sql(
  // Users in good standing, so every measured login and verify succeeds.
  `select id, username from app_users
   where application_id = $1 and not is_paused and expires_at is null
   order by username limit 2000`,
  [application.id],
);
process.stdout.write(
  `${JSON.stringify({
    port,
    applicationId: application.id,
    apiKey: application.apiKey,
    version: application.version,
    password: PASSWORD,
    sessionToken,
    users: sample,
    planId: plan!.id,
    keyHolderId: keyHolders[0]?.id ?? null,
    retentionSweep,
  })}\n`,
);

process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
