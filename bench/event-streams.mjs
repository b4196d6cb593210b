#!/usr/bin/env node
// `npm run bench:streams`: what open console streams (GET /api/events) cost the server. Starts
// Latchkey on the embedded database with STREAM_ACCOUNTS (100) owners, opens STREAMS (1,000)
// streams spread over them (the per-account cap is 10), and reads the server's resident set
// and V8 heap before and after, then sends one event to every stream and times its arrival.
// Figures from one run; compare only within a run.
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startChild, stopChild } from './bench-kit.mjs';

const STREAMS = Number(process.env.STREAMS ?? 1000);
const ACCOUNTS = Number(process.env.STREAM_ACCOUNTS ?? 100);
const log = (message) => process.stderr.write(`${message}\n`);

async function serverMemory(port) {
  const response = await fetch(`http://127.0.0.1:${port}/bench/memory`);
  return response.json();
}

function openStream(port, token) {
  return new Promise((resolve, reject) => {
    const outgoing = request({
      port,
      host: '127.0.0.1',
      path: '/api/events',
      headers: { cookie: `latchkey_session=${token}`, accept: 'text/event-stream' },
      agent: false,
    });
    outgoing.on('error', reject);
    outgoing.on('response', (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`stream answered ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      const stream = { response, outgoing, text: '' };
      response.on('data', (chunk) => {
        stream.text += chunk;
      });
      resolve(stream);
    });
    outgoing.end();
  });
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-streams-'));
  let server;
  try {
    server = await startChild(['--expose-gc', '--import', 'tsx', 'bench/event-streams-server.ts'], {
      DATA_DIR: dataDir,
      SERVER_SECRET: randomBytes(32).toString('base64url'),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SERVE_CONSOLE: 'false',
      STREAM_ACCOUNTS: String(ACCOUNTS),
      // No emulator: this measures streams, not sign-in.
      FIREBASE_PROJECT_ID: 'latchkey-bench',
      FIREBASE_API_KEY: 'bench',
      FIREBASE_AUTH_DOMAIN: 'latchkey-bench.firebaseapp.com',
    });
    const { port, sessionTokens } = server.info;
    // Settle, then measure the idle server.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const before = await serverMemory(port);
    const streams = [];
    for (let index = 0; index < STREAMS; index += 1) {
      streams.push(await openStream(port, sessionTokens[index % sessionTokens.length]));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = await serverMemory(port);
    log(`Opened ${streams.length} streams over ${ACCOUNTS} accounts.`);
    // One event to every stream, timed until each has it.
    const started = performance.now();
    await fetch(`http://127.0.0.1:${port}/bench/publish-to-all`, { method: 'POST' });
    while (streams.some((stream) => !stream.text.includes('event: stats'))) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const deliveredMs = performance.now() - started;
    const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    const held = after.heapUsed + after.external - (before.heapUsed + before.external);
    const table = [
      ['V8 heap + external, idle', mib(before.heapUsed + before.external)],
      [`with ${streams.length} open streams`, mib(after.heapUsed + after.external)],
      ['per open stream', `${(held / streams.length / 1024).toFixed(1)} KiB`],
      ['resident set, idle → open', `${mib(before.rss)} → ${mib(after.rss)}`],
      [`one event to all ${streams.length}`, `${deliveredMs.toFixed(0)} ms`],
    ];
    for (const [name, value] of table) process.stdout.write(`${name.padEnd(34)} ${value}\n`);
    for (const stream of streams) stream.outgoing.destroy();
  } finally {
    if (server) await stopChild(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
