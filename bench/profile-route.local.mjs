// Local profiling helper (not committed): CPU profile of the server under one route's load.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { prepareDatabase, startChild, stopChild } from './bench-kit.mjs';
const route = process.argv[2] ?? 'verify';
const database = await prepareDatabase();
const latchkey = await startChild(['--cpu-prof', '--cpu-prof-dir=/tmp/prof', '--import', 'tsx', 'bench/latchkey-server.ts'], {
  DATABASE_URL: database.url, DATA_DIR: mkdtempSync(join(tmpdir(), 'lk-prof-')),
  SERVER_SECRET: randomBytes(32).toString('base64url'), NODE_ENV: 'development', LOG_LEVEL: 'warn',
  SERVE_CONSOLE: 'false', CLIENT_API_IP_LIMIT_PER_MINUTE: '1000000000', METRICS_TOKEN: randomBytes(24).toString('base64url'),
});
const { port, apiKey, users, tokens } = latchkey.info;
const bodies = route === 'verify' ? users.map((u) => JSON.stringify({ user_id: u.id })) : tokens.map((t) => JSON.stringify({ action: 'heartbeat', session_token: t }));
const path = route === 'verify' ? '/api/v1/verify' : '/api/v1/session/track';
let next = 0;
const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 32, duration: Number(process.argv[3] ?? 15),
  requests: [{ method: 'POST', path, headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, setupRequest: (r) => { r.body = bodies[next++ % bodies.length]; return r; } }] });
console.log(route, 'rps', result.requests.average, 'non2xx', result.non2xx, 'errors', result.errors);
await stopChild(latchkey.child);
await database.drop();
