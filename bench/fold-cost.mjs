#!/usr/bin/env node
// What the counter fold costs PostgreSQL for each group of activity rows it takes: rows of one
// application, event and address, written within one fold's interval. Every sign-in from an
// address not seen that second is one such group, so this is the fold's share of a sign-in's
// database CPU when the addresses are many.
//
// Writes FOLD_GROUPS (5,000) rows a round, each its own group (100 to a statement, as the log's
// statement trigger queues them), then times one fold in the CPU of every PostgreSQL process on
// this machine; FOLD_ROUNDS (8) rounds for addresses new each round (the fold inserts every
// counter row) and as many for the same addresses again (it updates them). Run with
// `npm run bench:fold` on a quiet machine, PostgreSQL local (DATABASE_URL, or a throwaway
// database on BENCH_DATABASE_URL's server).
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { foldCounterDeltas } from '../apps/server/src/modules/activity/fold-counter-deltas.ts';
import { insertOwnerSessionAndApplication } from '../apps/server/test/factories.ts';
import { median, prepareDatabase } from './bench-kit.mjs';
import { postgresCpuUs, postgresPids } from './process-cpu.mjs';

const GROUPS = Number(process.env.FOLD_GROUPS ?? 5000);
const ROUNDS = Number(process.env.FOLD_ROUNDS ?? 8);

if (postgresPids().length === 0) {
  console.error("bench:fold reads PostgreSQL's CPU from /proc: run it on the database's machine");
  process.exit(1);
}

const target = await prepareDatabase();
const database = await openDatabase({ kind: 'postgres', url: target.url, poolSize: 2 });
try {
  const { db } = database;
  const { application } = await insertOwnerSessionAndApplication(db, {
    firebaseUid: 'bench-fold',
    email: 'bench-fold@example.com',
    sessionToken: 'bench-fold-session',
    serverSecret: 'bench-fold-server-secret-of-enough-length',
  });
  /** µs of PostgreSQL CPU a group, for each round's fold. */
  const foldRounds = async (addressOfRound) => {
    const perGroup = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let batch = 0; batch < GROUPS / 100; batch += 1) {
        await db.execute(sql`
          insert into activity_logs (application_id, username, event, success, ip_address, created_at)
          select ${application.id}, 'user-' || i, 'user_login', true,
                 '10.' || ${addressOfRound(round)} || '.' || ${batch} || '.' || i, now()
          from generate_series(1, 100) as i`);
      }
      const before = postgresCpuUs();
      const folded = await foldCounterDeltas(db);
      if (folded < GROUPS) throw new Error(`the fold took ${folded} deltas, not ${GROUPS}`);
      perGroup.push((postgresCpuUs() - before) / GROUPS);
    }
    return perGroup;
  };
  const fresh = await foldRounds((round) => 100 + round);
  const repeated = await foldRounds(() => 99);
  const show = (values) =>
    `median ${median(values).toFixed(1)} µs (rounds: ${values.map((v) => v.toFixed(0)).join(', ')})`;
  console.log(`PostgreSQL CPU a group folded, ${GROUPS} groups a fold, ${target.label}:`);
  console.log(`  new addresses:      ${show(fresh)}`);
  console.log(`  repeated addresses: ${show(repeated)}`);
} finally {
  await database.close();
  await target.drop();
}
