import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const mainScript = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface RealServerOptions {
  port: number;
  dataDir: string;
  /** Unset: the server makes its own, in DATA_DIR/server-secret, as `npm start` does. */
  serverSecret?: string;
  /**
   * A non-demo Firebase project id, so that the server starts no Auth emulator of its own
   * (the suite's holds the port); no owner signs in through these servers.
   */
  firebaseProjectId: string;
  /** More environment, over the defaults (DATABASE_URL among it, for PostgreSQL). */
  env?: Record<string, string>;
  /** How long it may take to answer /api/health. */
  timeoutMs?: number;
  /** Told what the server writes to stderr (still shown in the test's output too). */
  onStderr?: (text: string) => void;
  /** Told what the server writes to stdout (its log lines), which is otherwise discarded. */
  onStdout?: (text: string) => void;
}

/**
 * The real server process (src/main.ts under tsx) for tests that kill, restart or run
 * several of them: started with the test defaults, and answered once /api/health is ok.
 * The caller owns the child (and kills it); the suite's emulator and database settings are
 * not inherited.
 */
export async function startRealServer(options: RealServerOptions): Promise<ChildProcess> {
  const {
    FIREBASE_AUTH_EMULATOR_HOST: _emulator,
    DATABASE_URL: _database,
    SERVER_SECRET: _secret,
    ...inherited
  } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', mainScript], {
    cwd: repositoryRoot,
    env: {
      ...inherited,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(options.port),
      LOG_LEVEL: 'warn',
      DATA_DIR: options.dataDir,
      ...(options.serverSecret === undefined ? {} : { SERVER_SECRET: options.serverSecret }),
      FIREBASE_PROJECT_ID: options.firebaseProjectId,
      FIREBASE_API_KEY: 'unused',
      FIREBASE_AUTH_DOMAIN: 'unused.example.com',
      SERVE_CONSOLE: 'false',
      ...options.env,
    },
    stdio: ['ignore', options.onStdout ? 'pipe' : 'ignore', options.onStderr ? 'pipe' : 'inherit'],
  });
  if (options.onStdout) child.stdout?.setEncoding('utf8').on('data', options.onStdout);
  if (options.onStderr) {
    const onStderr = options.onStderr;
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      process.stderr.write(text);
      onStderr(text);
    });
  }
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${options.port}/api/health`)).ok) return child;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('server did not become healthy');
}
