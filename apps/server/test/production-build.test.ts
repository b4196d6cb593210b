import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientAuthResponseSchema,
  clientApiHeaders,
  healthSchema,
  sampleLanguages,
  sdkPackagesIndexSchema,
} from '@latchkey/contracts';
import type { Database } from '../src/db/client.ts';
import * as schema from '../src/db/schema/index.ts';
import { generateSigningKeyPair, verifyApplicationSignature } from '../src/lib/signing-keys.ts';
import { insertApplication, insertAppUserWithPassword } from './factories.ts';
import { dropWithRetries } from './test-database.ts';

/**
 * The compiled build as a self-hoster runs it: `npm run build`, dist/ copied to a folder of
 * its own (outside the repository, so no module can be found in the repository's
 * node_modules), `npm ci --omit=dev`, plain node with NODE_ENV=production on a fresh
 * PostgreSQL database. Run by `npm test` as a step of its own (its vitest config is
 * vitest.production-build.config.ts), only with TEST_DATABASE_URL.
 */

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const serverUrl = process.env.TEST_DATABASE_URL;
const developmentTools = ['tsx', 'vite', 'vitest', 'firebase-tools'];

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const result = spawnSync(command, args, { ...options, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
    );
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/** Every installed copy (hoisted or nested) of the named packages under `nodeModules`. */
function findInstalled(nodeModules: string, names: string[]): string[] {
  if (!existsSync(nodeModules)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const packageDirs = entry.startsWith('@')
      ? readdirSync(join(nodeModules, entry)).map((name) => `${entry}/${name}`)
      : [entry];
    for (const name of packageDirs) {
      if (names.includes(name)) found.push(join(nodeModules, name));
      found.push(...findInstalled(join(nodeModules, name, 'node_modules'), names));
    }
  }
  return found;
}

describe.runIf(serverUrl)('the compiled production build', () => {
  let installDir = '';
  const databaseName = `latchkey_build_${randomBytes(6).toString('hex')}`;
  const serverSecret = randomBytes(48).toString('base64');
  let baseUrl = '';
  let server: ChildProcess | undefined;
  let serverOutput = '';
  let pool: pg.Pool | undefined;

  beforeAll(async () => {
    installDir = mkdtempSync(join(tmpdir(), 'latchkey-production-'));
    // NODE_ENV=test (vitest's) would make Vite build the console in another mode.
    const buildEnvironment = { ...process.env };
    delete buildEnvironment.NODE_ENV;
    run('npm', ['run', 'build', '--silent'], { cwd: repositoryRoot, env: buildEnvironment });
    cpSync(join(repositoryRoot, 'dist'), installDir, { recursive: true });
    run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
      cwd: installDir,
      env: buildEnvironment,
    });

    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const databaseUrl = new URL(serverUrl!);
    databaseUrl.pathname = `/${databaseName}`;

    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    // Only what production sets: nothing of this test run's environment (emulator hosts,
    // NODE_ENV=test) may leak in.
    server = spawn(process.execPath, ['--enable-source-maps', 'server/main.js'], {
      cwd: installDir,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_ORIGIN: baseUrl,
        DATA_DIR: join(installDir, 'data'),
        DATABASE_URL: databaseUrl.toString(),
        SERVER_SECRET: serverSecret,
        FIREBASE_PROJECT_ID: 'latchkey-production-check',
        FIREBASE_API_KEY: 'production-check-api-key',
        FIREBASE_AUTH_DOMAIN: 'latchkey-production-check.firebaseapp.com',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const capture = (chunk: Buffer) => (serverOutput = (serverOutput + chunk).slice(-20_000));
    server.stdout?.on('data', capture);
    server.stderr?.on('data', capture);

    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) {
        throw new Error(`the built server exited (${server.exitCode}):\n${serverOutput}`);
      }
      const isUp = await fetch(`${baseUrl}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (isUp) break;
      if (Date.now() > deadline)
        throw new Error(`the built server never came up:\n${serverOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // The server ran the migrations at start-up; no migrate() here, so a build without them fails.
    pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: 2 });
  });

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await pool?.end();
    if (serverUrl) {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      try {
        await dropWithRetries(cleanup, databaseName);
      } finally {
        await cleanup.end();
      }
    }
    if (installDir) rmSync(installDir, { recursive: true, force: true });
  });

  it('installs no development tool', () => {
    expect(existsSync(join(installDir, 'node_modules/fastify'))).toBe(true);
    expect(findInstalled(join(installDir, 'node_modules'), developmentTools)).toEqual([]);
  });

  it('is healthy on PostgreSQL with a real Firebase project', async () => {
    const response = await fetch(`${baseUrl}/api/health`);
    expect(response.status).toBe(200);
    expect(healthSchema.parse(await response.json())).toEqual({
      status: 'ok',
      database: 'postgres',
      identity: 'firebase',
    });
  });

  it('serves the console and its fingerprinted assets', async () => {
    const index = await fetch(`${baseUrl}/`);
    expect(index.status).toBe(200);
    const html = await index.text();
    const script = /src="(\/assets\/[\w.-]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    const asset = await fetch(`${baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await asset.text()).length).toBeGreaterThan(1000);
  });

  it('serves the client SDK packages it was built with, as listed', async () => {
    const index = sdkPackagesIndexSchema.parse(
      await (await fetch(`${baseUrl}/sdk/index.json`)).json(),
    );
    // CI installs every SDK's toolchain, so a package left out there is a broken build.
    if (process.env.CI === 'true') {
      const sdkFolders = { nodejs: 'typescript', python: 'python', csharp: 'csharp', cpp: 'cpp' };
      const present = sampleLanguages.filter((language) =>
        existsSync(join(repositoryRoot, 'sdks', sdkFolders[language])),
      );
      expect(index.packages.map((sdk) => sdk.language).sort()).toEqual(present.sort());
    }
    for (const sdk of index.packages) {
      const response = await fetch(`${baseUrl}/sdk/${sdk.file}`);
      expect(response.status, sdk.file).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.length, sdk.file).toBe(sdk.size);
      expect(createHash('sha256').update(bytes).digest('hex'), sdk.file).toBe(sdk.sha256);
    }
  });

  it('answers a client-API login signed with the application key', async () => {
    const db = drizzle(pool!, { schema }) as unknown as Database;
    const [owner] = await db
      .insert(schema.ownerAccounts)
      .values({ firebaseUid: `uid-${randomBytes(6).toString('hex')}`, email: 'vendor@example.com' })
      .returning();
    // The key pair as createApplication makes it, under the server's own SERVER_SECRET.
    const application = await insertApplication(
      db,
      owner!.id,
      generateSigningKeyPair(serverSecret),
    );
    const user = await insertAppUserWithPassword(db, application.id, 'a long password');

    const nonce = randomBytes(12).toString('hex');
    const response = await fetch(`${baseUrl}/api/v1/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [clientApiHeaders.apiKey]: application.apiKey,
        [clientApiHeaders.nonce]: nonce,
      },
      body: JSON.stringify({
        username: user.username,
        password: 'a long password',
        version: application.version,
      }),
    });
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.status, body.toString()).toBe(200);
    expect(clientAuthResponseSchema.parse(JSON.parse(body.toString()))).toMatchObject({
      success: true,
      user_id: user.id,
    });
    const signature = response.headers.get(clientApiHeaders.signature) ?? '';
    const timestamp = response.headers.get(clientApiHeaders.signatureTimestamp) ?? '';
    const signed = Buffer.concat([Buffer.from(`${timestamp}.${nonce}.`), body]);
    expect(
      verifyApplicationSignature(
        application.signingPublicKey,
        signed,
        Buffer.from(signature, 'hex'),
      ),
    ).toBe(true);
  });
});
