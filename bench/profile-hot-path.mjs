#!/usr/bin/env node
// `npm run bench:profile`: a CPU profile of the server while it answers one client-API call
// at saturation (BENCH_PROFILE_CALL: verify, heartbeat, login, keyLogin, keyauthCheck; default
// verify), then the functions
// that took the most self time. For finding where a request's CPU goes, not for figures:
// those are `npm run bench`'s. Writes the .cpuprofile (Chrome DevTools opens it) to a folder
// in the temporary directory and prints its path.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  benchServerEnv,
  hotCallBodies,
  prepareDatabase,
  startChild,
  stopChild,
} from './bench-kit.mjs';

const CALL = process.env.BENCH_PROFILE_CALL ?? 'verify';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const log = (message) => process.stderr.write(`${message}\n`);

const database = await prepareDatabase();
const profileDir = mkdtempSync(join(tmpdir(), 'latchkey-profile-'));
let server;
try {
  server = await startChild(
    ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--import', 'tsx', 'bench/latchkey-server.ts'],
    benchServerEnv({
      databaseUrl: database.url,
      dataDir: mkdtempSync(join(tmpdir(), 'latchkey-profile-data-')),
      BENCH_REDEEM_KEYS: '10',
      BENCH_KEY_LOGINS: '10',
    }),
  );
  const { port, apiKey } = server.info;
  const bodiesOf = hotCallBodies(server.info);
  const calls = {
    verify: { path: '/api/v1/verify', connections: 50, bodies: bodiesOf.verify },
    heartbeat: { path: '/api/v1/session/track', connections: 50, bodies: bodiesOf.heartbeat },
    // Successful logins over every user, at the bench's login concurrency: the argon2id hash
    // runs on the libuv pool, so what the main thread shows is the work around it.
    login: { path: '/api/v1/login', connections: 16, bodies: bodiesOf.login },
    // A login by licence key: the same writes as login's, and no hash.
    keyLogin: { path: '/api/v1/license/login', connections: 16, bodies: bodiesOf.keyLogin },
  };
  if (CALL === 'keyauthCheck') calls.keyauthCheck = await keyauthCheckCall(server.info);
  const call = calls[CALL];
  if (!call) {
    throw new Error(
      `BENCH_PROFILE_CALL: one of ${[...Object.keys(calls), 'keyauthCheck'].join(', ')}`,
    );
  }
  const { path, bodies } = call;
  let next = 0;
  log(`Loading ${path} for ${DURATION} s...`);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: call.connections,
    duration: DURATION,
    requests: [
      {
        method: 'POST',
        path,
        headers: call.headers ?? { 'content-type': 'application/json', 'x-api-key': apiKey },
        setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }),
      },
    ],
  });
  log(`${Math.round(result.requests.average)} requests/s, ${result.non2xx} non-2xx`);
} finally {
  if (server) await stopChild(server.child);
  await database.drop();
}

/** KeyAuth's check (/api/1.2/) over 200 sessions, each opened by init and validated by a login. */
async function keyauthCheckCall({ port, users, password, version, keyauth }) {
  const form = (fields) =>
    new URLSearchParams({ ...fields, name: keyauth.name, ownerid: keyauth.ownerId }).toString();
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const call = async (fields) => {
    const response = await fetch(`http://127.0.0.1:${port}/api/1.2/`, {
      method: 'POST',
      headers,
      body: form(fields),
    });
    const answer = await response.json();
    if (!answer.success) throw new Error(`KeyAuth ${fields.type}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const bodies = [];
  for (const user of users.slice(0, 200)) {
    const { sessionid } = await call({ type: 'init', ver: version, enckey: 'profile' });
    await call({ type: 'login', sessionid, username: user.username, pass: password });
    bodies.push(form({ type: 'check', sessionid }));
  }
  return { path: '/api/1.2/', connections: 50, bodies, headers };
}

const [file] = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8'));
const selfTime = new Map();
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const byOrigin = new Map();
const deltas = profile.timeDeltas;
// Only the load: the samples of the last BENCH_DURATION seconds before the server stopped
// (start-up and seeding come before; stopping takes a few milliseconds after).
const loadStartsAt = profile.endTime - DURATION * 1e6;
let at = profile.startTime;
let total = 0;
profile.samples.forEach((id, index) => {
  at += deltas[index] ?? 0;
  if (at < loadStartsAt) return;
  const { callFrame } = byId.get(id);
  if (callFrame.functionName === '(idle)') return;
  const url = callFrame.url
    .replace(/.*node_modules\//, '~/')
    .replace(/.*\/(apps|bench|packages)\//, '$1/');
  const where = `${callFrame.functionName || '(anonymous)'} ${url}:${callFrame.lineNumber + 1}`;
  const origin = url.startsWith('~/')
    ? url
        .split('/')
        .slice(0, url.startsWith('~/@') ? 3 : 2)
        .join('/')
    : url.startsWith('node:')
      ? url.split('/').slice(0, 3).join('/')
      : url.startsWith('apps/') || url.startsWith('packages/')
        ? 'ours'
        : callFrame.functionName || '(native)';
  selfTime.set(where, (selfTime.get(where) ?? 0) + (deltas[index] ?? 0));
  byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + (deltas[index] ?? 0));
  total += deltas[index] ?? 0;
});
const print = (rows) => {
  for (const [where, time] of rows) {
    process.stdout.write(`${((100 * time) / total).toFixed(1).padStart(5)}%  ${where}\n`);
  }
};
process.stdout.write('Busy time during the load, by where the code comes from:\n');
print([...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, 20));
process.stdout.write('\nBy function (self time):\n');
print([...selfTime].sort((a, b) => b[1] - a[1]).slice(0, 40));
process.stdout.write(`\nProfile: ${join(profileDir, file)}\n`);
