import cluster from 'node:cluster';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { buildApp, type ServedSide } from './app.ts';
import {
  CONFIG_ERROR_EXIT_CODE,
  runClusterPrimary,
  workerSide,
  workerSlot,
} from './cluster-primary.ts';
import { otherCpus } from './lib/cpu-list.ts';
import { keepToCpus, lowerOwnCpuPriority } from './lib/cpu-priority.ts';
import { ConfigError, describeMode, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { startAuthEmulator, type RunningAuthEmulator } from './identity/auth-emulator.ts';
import { createFirebaseIdentityVerifier } from './identity/identity-verifier.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const split = config.clientApiListener;
  if ((config.webConcurrency > 1 || split) && cluster.isPrimary) {
    // One emulator for the machine, started by the parent: workers would fight over its port.
    const emulator = await startEmulatorIfConfigured(config);
    runClusterPrimary({
      groups: split
        ? [
            { side: 'client-api', workers: split.workers },
            { side: 'console', workers: config.webConcurrency },
          ]
        : [{ side: 'everything', workers: config.webConcurrency }],
      log: pino({ level: config.logLevel }),
      onStopped: async () => {
        await emulator?.stop();
      },
    });
    return;
  }
  // Workers share PORT (the cluster balances it), but a scraper must reach each worker's own
  // figures: worker N serves metrics on METRICS_PORT + N.
  const slot = workerSlot();
  const { port: metricsPort } = config.metrics;
  const ownConfig =
    metricsPort === null || metricsPort === 0
      ? config
      : { ...config, metrics: { ...config.metrics, port: metricsPort + slot } };
  const side = workerSide();
  // The console's workers yield the CPU to the client API's: a vendor's heavy console read
  // must never make every vendor's programs wait. With CONSOLE_WORKER_CPUS the two
  // sides also run on CPUs of their own.
  if (side === 'console' && split) lowerOwnCpuPriority(split.consoleNiceness);
  const ownCpus = cpusOfSide(config, side);
  if (ownCpus !== null) await keepToCpus(process.pid, ownCpus, { allThreads: true });
  await serve(ownConfig, {
    startsEmulator: cluster.isPrimary,
    side,
    port: side === 'client-api' && split ? split.port : config.port,
  });
}

function startEmulatorIfConfigured(config: Config): Promise<RunningAuthEmulator | null> {
  return config.identity.emulatorHost
    ? startAuthEmulator({
        host: config.identity.emulatorHost,
        projectId: config.identity.projectId,
        stateDir: join(config.dataDir, 'firebase-auth-emulator'),
      })
    : Promise.resolve(null);
}

/**
 * What a side adds to the database settings: its pool's name in
 * pg_stat_activity, and for the console's workers a lower priority for their PostgreSQL
 * backends where the operating system allows it (most of a heavy console read's CPU is spent
 * there).
 */
function databaseSettingsOfSide(config: Config, side: ServedSide) {
  const split = config.clientApiListener;
  if (side === 'everything' || !split) return {};
  const applicationName = `latchkey-${side}`;
  const niceness = side === 'console' ? split.consoleNiceness : 0;
  const cpus = cpusOfSide(config, side);
  if (niceness === 0 && cpus === null) return { applicationName };
  return {
    applicationName,
    backendPriority: {
      niceness,
      cpus,
      onRefused: (error: Error) =>
        console.warn(
          `The ${side} side's database connections keep their CPU priority and CPUs (${error.message}): only its worker processes are set. See docs/operations.md, "The client API on a port of its own".`,
        ),
    },
  };
}

/**
 * With CONSOLE_WORKER_CPUS, the CPUs a side's workers and backends are kept to: the console's
 * its list, the client API's every other CPU. Null: any CPU.
 */
function cpusOfSide(config: Config, side: ServedSide): string | null {
  const consoleCpus = config.clientApiListener?.consoleCpus ?? null;
  if (consoleCpus === null || side === 'everything') return null;
  if (side === 'console') return consoleCpus;
  const rest = otherCpus(consoleCpus, cpus().length);
  if (rest === '') {
    throw new Error(
      `CONSOLE_WORKER_CPUS=${consoleCpus} leaves none of this machine's ${cpus().length} CPUs to the client API`,
    );
  }
  return rest;
}

/** One instance: this process, or one worker of a cluster (whose parent owns the emulator). */
async function serve(
  config: Config,
  options: { startsEmulator: boolean; side: ServedSide; port: number },
): Promise<void> {
  // The emulator and the database start side by side: the emulator is the slow one.
  const emulatorStarting = options.startsEmulator
    ? startEmulatorIfConfigured(config)
    : Promise.resolve(null);
  const [database, emulator] = await Promise.all([
    openDatabase(
      config.database.kind === 'postgres'
        ? { ...config.database, ...databaseSettingsOfSide(config, options.side) }
        : { kind: 'pglite', dataDir: config.database.dataDir },
    ),
    emulatorStarting,
  ]);

  const identity = createFirebaseIdentityVerifier({
    projectId: config.identity.projectId,
    emulatorHost: config.identity.emulatorHost,
  });
  const app = await buildApp({ config, database, identity, serves: options.side });
  app.log.info(`Latchkey mode: ${describeMode(config)}`);
  if (options.side !== 'everything') app.log.info(`this worker serves: ${options.side}`);

  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    app.log.info({ signal }, 'shutting down');
    const forceExit = setTimeout(() => process.exit(1), 20_000);
    forceExit.unref();
    // The database closes after the app: app.close() drains requests and flushes the
    // activity recorder, which still needs the database.
    await app.close();
    await identity.close();
    await database.close();
    await emulator?.stop();
    process.exit(0);
  };
  // `on`, not `once`: a terminal's Ctrl-C reaches us twice (directly and via npm start),
  // and a second, unhandled SIGINT would kill the process mid-shutdown.
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host: config.host, port: options.port });
  app.log.info(
    { database: database.kind, identity: identity.mode, serves: options.side },
    `Latchkey is ready at http://localhost:${options.port}`,
  );
}

main().catch((error: unknown) => {
  const isConfigError = error instanceof ConfigError;
  console.error(isConfigError ? error.message : error);
  process.exit(isConfigError ? CONFIG_ERROR_EXIT_CODE : 1);
});
