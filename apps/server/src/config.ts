import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { permissionSchema, type Permission } from '@latchkey/contracts';
import { parseCpuList } from './lib/cpu-list.ts';
import { minimumSecretLength, secretWeakness } from './lib/secret-strength.ts';
import { smtpUrlProblem } from './lib/smtp-url.ts';
import { serverAssetPaths } from './server-asset-paths.ts';

/** An empty variable (`METRICS_PORT=`) is unset, not a zero. */
const blankAsUnset = (value: unknown) => (value === '' ? undefined : value);

const isCpuList = (list: string) => {
  try {
    return parseCpuList(list).length > 0;
  } catch {
    return false;
  }
};

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Every environment variable the server reads, parsed once. */
export const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * `json`: one JSON object per line, for log collectors. `pretty`: one readable line per
   * request (pino-pretty, a development dependency); `npm start` chooses it outside production.
   */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Worker processes on this machine (node:cluster), each a whole instance; needs DATABASE_URL. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * The client API (/api/v1) on a port and worker processes of its own; PORT then
   * serves the console and the owner API from WEB_CONCURRENCY workers at a lower CPU priority.
   */
  CLIENT_API_PORT: z.preprocess(blankAsUnset, z.coerce.number().int().min(1).max(65535).optional()),
  CLIENT_API_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Verify and heartbeat answered before Fastify's lifecycle (lean-client-path.ts); `false`
   * sends them through Fastify like every other call (the same answers, at a higher CPU cost).
   */
  CLIENT_API_LEAN_PATH: booleanFlag.default(true),
  /** The niceness of the console's workers with CLIENT_API_PORT (0: as the client API's). */
  CONSOLE_WORKER_NICENESS: z.coerce.number().int().min(0).max(19).default(10),
  /**
   * The CPUs the console's workers and their local PostgreSQL backends may run on with
   * CLIENT_API_PORT (a taskset list: `1`, `2-3`, `0,2`); the client API's workers and backends
   * then run on every other CPU. Unset: both sides on any CPU.
   */
  CONSOLE_WORKER_CPUS: z.preprocess(
    blankAsUnset,
    z.string().refine(isCpuList, 'must be a CPU list such as 1, 2-3 or 0,2').optional(),
  ),
  FIREBASE_PROJECT_ID: z.string().min(1).default('demo-latchkey'),
  FIREBASE_API_KEY: z.string().min(1).optional(),
  FIREBASE_AUTH_DOMAIN: z.string().min(1).optional(),
  FIREBASE_APP_ID: z.string().min(1).optional(),
  FIREBASE_AUTH_EMULATOR_HOST: z
    .string()
    .regex(/^[\w.-]+:\d+$/, 'FIREBASE_AUTH_EMULATOR_HOST must be host:port')
    .optional(),
  /** Secret for encrypting signing keys at rest. Required (and strong) in production; generated locally. */
  SERVER_SECRET: z
    .string()
    .min(minimumSecretLength, `SERVER_SECRET must be at least ${minimumSecretLength} characters`)
    .optional(),
  /** Origin the console is served from (e.g. https://latchkey.example.com). Required in production; elsewhere defaults to the request's own origin. */
  PUBLIC_ORIGIN: z.url().optional(),
  /** Trust X-Forwarded-For from this many proxy hops (0 = use the socket address). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024),
  /** The largest file an owner may upload, in MiB. */
  MAX_UPLOAD_MB: z.coerce.number().int().min(1).max(1_048_576).default(512),
  OWNER_SESSION_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  /** Client-API requests per minute from one IP address to one application (many users share a NAT). */
  CLIENT_API_IP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Failed logins per application, username and IP address before logins are refused... */
  LOGIN_FAILURE_LIMIT: z.coerce.number().int().min(1).max(1000).default(10),
  /** ...per application and username from any IP address except the user's last login IP... */
  LOGIN_USERNAME_FAILURE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(50),
  /** ...per application and IP address across usernames (password spraying)... */
  LOGIN_IP_FAILURE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(100),
  /** ...within this many minutes from the first failure (a fixed window per counter). */
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  // Refused licence keys and download links, in the same window: per address (an IPv6 /64)...
  LICENSE_FAILURES_PER_IP: z.coerce.number().int().min(1).max(100_000).default(20),
  // ...per range (an IPv4 /24, an IPv6 /48: guessing from many addresses comes from a few)...
  LICENSE_FAILURES_PER_RANGE: z.coerce.number().int().min(1).max(1_000_000).default(100),
  // ...per key or link guessed (a keyed digest of it)...
  LICENSE_FAILURES_PER_KEY: z.coerce.number().int().min(1).max(100_000).default(10),
  // ...and per application or file: past this, attempts from addresses that already failed
  // wait LICENSE_FAILURE_DELAY_MS first. Never a refusal, which would lock out every buyer.
  LICENSE_FAILURES_PER_APP: z.coerce.number().int().min(1).max(1_000_000).default(200),
  LICENSE_FAILURE_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  /** Keeps the failed-login counters in Redis instead of the database (shared by all instances either way). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// or rediss:// URL')
    .optional(),
  /** How long an instance may serve a changed application from its cache if the change notification (LISTEN/NOTIFY) never reaches it. */
  CLIENT_API_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Activity rows and counters are written in batches at most this far apart... */
  ACTIVITY_FLUSH_INTERVAL_MS: z.coerce.number().int().min(1).max(60_000).default(100),
  /** ...or as soon as this many activity rows are waiting. */
  ACTIVITY_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  /** The activity counters and charts catch up with the rows this often when nobody reads them (a read catches up first). */
  COUNTER_FOLD_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  /** Live console streams (GET /api/events) one account may hold open on one instance; the next is 429. */
  SSE_MAX_CONNECTIONS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(10),
  /** Management API calls one token may make a minute, counted across instances. */
  MANAGE_API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** Shortest password a new end user may choose (register, owner create and change). */
  END_USER_PASSWORD_MIN_LENGTH: z.coerce.number().int().min(1).max(128).default(8),
  /** Ended sessions are deleted after this many days; open ones silent this long are ended. */
  SESSION_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Activity log rows are deleted after this many days. */
  ACTIVITY_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** How often the retention sweep runs (it also runs shortly after start-up). */
  RETENTION_SWEEP_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  /** Lets webhooks reach private networks (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7): self-hosters' internal receivers. */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: booleanFlag.default(false),
  /** How often the webhook dispatcher looks for due deliveries (it also wakes on new ones). */
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Seconds to wait before each retry of a failed delivery; after the last, it has failed. */
  WEBHOOK_RETRY_DELAYS_SECONDS: z
    .string()
    .regex(/^\s*\d{1,6}(\s*,\s*\d{1,6}){0,49}\s*$/, 'a comma list of whole seconds')
    .default('5,300,1800,7200,18000,36000,36000')
    .transform((text) => text.split(',').map(Number)),
  /**
   * The mail server end-user mail goes through: smtp://user:pass@host:587 (STARTTLS) or
   * smtps://…:465. Without it, development delivers to a local mailbox the console shows and
   * production sends no mail.
   */
  SMTP_URL: z.preprocess(blankAsUnset, z.string().optional()),
  /**
   * Where Stripe's API is, for the connections that read a Checkout Session's line items with
   * their own API key. Stripe's own by default; a proxy, or a test's stand-in, otherwise.
   */
  STRIPE_API_URL: z.preprocess(blankAsUnset, z.url().optional()),
  /** The address mail is sent from (each application adds its own display name). */
  MAIL_FROM: z.preprocess(
    blankAsUnset,
    z.email('MAIL_FROM must be an e-mail address, e.g. no-reply@example.com').optional(),
  ),
  /** How often the mail worker looks for due messages (it also wakes on new ones). */
  MAIL_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Seconds to wait before each retry of a temporary failure; the default spans 27 hours. */
  MAIL_RETRY_DELAYS_SECONDS: z
    .string()
    .regex(/^\s*\d{1,6}(\s*,\s*\d{1,6}){0,49}\s*$/, 'a comma list of whole seconds')
    .default('60,300,900,3600,7200,14400,28800,43200')
    .transform((text) => text.split(',').map(Number)),
  /** Mail-sending requests (password/forgot) one client address may make an hour; then 429. */
  MAIL_REQUESTS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Mails one account (username or address, known or not) may be sent an hour on request. */
  MAIL_REQUESTS_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(3),
  /** Mails one application may send an hour on its end users' requests. */
  MAIL_REQUESTS_PER_APP_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Permissions a new (not the first) account starts with: a comma list of permission ids; '' for none. */
  DEFAULT_ACCOUNT_PERMISSIONS: z
    .string()
    .default('manage_applications,delete_applications')
    .transform((text, context) => {
      const names = text
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const permissions: Permission[] = [];
      for (const name of names) {
        const parsed = permissionSchema.safeParse(name);
        if (!parsed.success) {
          context.addIssue({
            code: 'custom',
            message: `unknown permission "${name}" (known: ${permissionSchema.options.join(', ')})`,
          });
          return z.NEVER;
        }
        if (!permissions.includes(parsed.data)) permissions.push(parsed.data);
      }
      return permissions;
    }),
  /** Serves /metrics on a listener of its own at this port (and no longer on PORT). */
  METRICS_PORT: z.preprocess(blankAsUnset, z.coerce.number().int().min(0).max(65535).optional()),
  /** The metrics listener's address: loopback unless the scraper is elsewhere (it has no TLS). */
  METRICS_HOST: z.preprocess(blankAsUnset, z.string().default('127.0.0.1')),
  /** Bearer token /metrics requires: on PORT it is what turns metrics on; on METRICS_PORT, optional. */
  METRICS_TOKEN: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(
        /^[\x21-\x7e]{16,512}$/,
        'METRICS_TOKEN must be 16 to 512 visible ASCII characters (e.g. `openssl rand -hex 32`)',
      )
      .optional(),
  ),
  /**
   * Directory of the built console, when it is not beside the server's own build. Serving it
   * at all is SERVE_CONSOLE's choice (false for API-only deployments).
   */
  CONSOLE_DIST_DIR: z.string().optional(),
  SDK_PACKAGES_DIR: z.string().optional(),
  SERVE_CONSOLE: booleanFlag.default(true),
});

const DAY_MS = 24 * 60 * 60 * 1000;

export type Environment = z.infer<typeof environmentSchema>;

/**
 * Where end-user mail goes: an SMTP server; the local mailbox (development without SMTP_URL:
 * messages stay in the database and the console shows them); or nowhere (production without
 * SMTP_URL: the mail features are off and the console says why).
 */
export interface MailSettings {
  transport: { kind: 'smtp'; url: string } | { kind: 'mailbox' } | null;
  /** The envelope and From address; an application adds its display name. */
  from: string;
  pollIntervalMs: number;
  /** Delay before each retry; a message has `retryDelaysMs.length + 1` attempts. */
  retryDelaysMs: number[];
  requestLimits: MailRequestLimits;
}

/** How many mail-sending requests each budget allows an hour (modules/mail's throttles). */
export interface MailRequestLimits {
  perAddressPerHour: number;
  perTargetPerHour: number;
  perApplicationPerHour: number;
}

/** The From address of the local mailbox, which sends nothing anywhere. */
const DEVELOPMENT_MAIL_FROM = 'latchkey@localhost';

export interface Config {
  nodeEnv: Environment['NODE_ENV'];
  isProduction: boolean;
  host: string;
  port: number;
  logLevel: Environment['LOG_LEVEL'];
  logFormat: Environment['LOG_FORMAT'];
  dataDir: string;
  /** Worker processes main.ts runs on this machine (1: this process serves). */
  webConcurrency: number;
  /**
   * CLIENT_API_PORT's listener: /api/v1 served there by `workers` processes of its
   * own, PORT's `webConcurrency` workers serving the rest at `consoleNiceness`. Null: one port.
   */
  clientApiListener: {
    port: number;
    workers: number;
    consoleNiceness: number;
    /** A taskset CPU list for the console's side, or null for any CPU. */
    consoleCpus: string | null;
  } | null;
  database:
    { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; poolSize: number };
  identity: {
    projectId: string;
    webConfig: { apiKey: string; authDomain: string; projectId: string; appId?: string };
    /** host:port of the Auth emulator; null means a real Firebase project. */
    emulatorHost: string | null;
  };
  serverSecret: string;
  publicOrigin: string | null;
  /** STRIPE_API_URL; null is Stripe's own API. */
  stripeApiUrl: string | null;
  trustProxyHops: number;
  bodyLimitBytes: number;
  /** MAX_UPLOAD_MB in bytes: the upload route's own limit (its body is streamed, not parsed). */
  maxUploadBytes: number;
  ownerSessionMs: number;
  consoleDistDir: string | null;
  /** The built client SDK packages, served at /sdk/. */
  sdkPackagesDir: string;
  /** Where failed-login counters live: Redis when set, else the database. */
  redisUrl: string | null;
  clientApi: {
    /** Verify and heartbeat before Fastify's lifecycle (CLIENT_API_LEAN_PATH). */
    isLeanPathEnabled: boolean;
    ipLimitPerMinute: number;
    loginFailureLimit: number;
    loginUsernameFailureLimit: number;
    loginIpFailureLimit: number;
    loginFailureWindowMs: number;
    licenseIpFailureLimit: number;
    licenseRangeFailureLimit: number;
    licenseKeyFailureLimit: number;
    licenseAppFailureLimit: number;
    licenseFailureDelayMs: number;
    applicationCacheTtlMs: number;
  };
  activity: { flushIntervalMs: number; batchSize: number; counterFoldIntervalMs: number };
  /** Live console streams one account may hold open on one instance. */
  sseMaxConnectionsPerAccount: number;
  /** The management API's calls per token per minute. */
  manageApiRateLimitPerMinute: number;
  endUserPasswordMinLength: number;
  /** What a newly created (not the first) account may do. */
  defaultAccountPermissions: Permission[];
  retention: { sessionMs: number; activityLogMs: number; sweepIntervalMs: number };
  webhooks: { allowPrivateNetworks: boolean; pollIntervalMs: number; retryDelaysMs: number[] };
  mail: MailSettings;

  /**
   * Prometheus metrics. `port` set: served on a listener of their own; else, with `token`,
   * on the main port behind it; neither: not collected at all (no cost per request).
   */
  metrics: { port: number | null; host: string; token: string | null };
}

export class ConfigError extends Error {}

/** Parses the environment into a Config, refusing unsafe production combinations. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  const dataDir = resolve(env.DATA_DIR);
  const isDemoProject = env.FIREBASE_PROJECT_ID.startsWith('demo-');

  // A server that honoured the emulator would accept unsigned tokens: anyone could sign in
  // as anyone. Refuse to start rather than degrade silently, and refuse it beside a real
  // project in every mode: a forgotten NODE_ENV must not open a real deployment.
  if (isProduction && env.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new ConfigError('FIREBASE_AUTH_EMULATOR_HOST must not be set in production');
  }
  if (!isDemoProject && env.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new ConfigError(
      `FIREBASE_AUTH_EMULATOR_HOST is set for the real Firebase project "${env.FIREBASE_PROJECT_ID}": the emulator is only for demo- projects`,
    );
  }
  if (isProduction && isDemoProject) {
    throw new ConfigError('Production needs a real Firebase project: set FIREBASE_PROJECT_ID');
  }
  if (!isDemoProject && (!env.FIREBASE_API_KEY || !env.FIREBASE_AUTH_DOMAIN)) {
    throw new ConfigError(
      'A real Firebase project needs FIREBASE_API_KEY and FIREBASE_AUTH_DOMAIN (its web config)',
    );
  }
  if (isProduction && !env.SERVER_SECRET) {
    throw new ConfigError(
      'SERVER_SECRET is required in production: generate one with `openssl rand -base64 48`',
    );
  }
  const secretProblem =
    isProduction && env.SERVER_SECRET ? secretWeakness(env.SERVER_SECRET) : null;
  if (secretProblem) throw new ConfigError(secretProblem);
  // Without it the allowed origin would come from the Host header, which the client chooses.
  if (isProduction && !env.PUBLIC_ORIGIN) {
    throw new ConfigError(
      'PUBLIC_ORIGIN is required in production: the origin the console is served from, e.g. https://latchkey.example.com',
    );
  }
  // Production sends HSTS and Secure cookies: over plain HTTP the first is meaningless and the
  // second would travel in clear text. A loopback origin stays allowed for trying a production
  // build on one's own machine (browsers treat it as secure).
  if (isProduction && env.PUBLIC_ORIGIN && !isHttpsOrLoopback(new URL(env.PUBLIC_ORIGIN))) {
    throw new ConfigError(
      `PUBLIC_ORIGIN must be an https:// origin in production (got ${new URL(env.PUBLIC_ORIGIN).origin}); only a loopback origin such as http://localhost:5000 may use http://`,
    );
  }

  const smtpProblem = env.SMTP_URL === undefined ? null : smtpUrlProblem(env.SMTP_URL);
  if (smtpProblem) throw new ConfigError(smtpProblem);
  if (env.SMTP_URL && !env.MAIL_FROM) {
    throw new ConfigError('SMTP_URL needs MAIL_FROM: the address mail is sent from');
  }

  if (env.WEB_CONCURRENCY > 1 && !env.DATABASE_URL) {
    throw new ConfigError(
      'WEB_CONCURRENCY above 1 needs DATABASE_URL: the embedded database (PGlite) belongs to one process',
    );
  }

  if (env.CLIENT_API_PORT !== undefined && !env.DATABASE_URL) {
    throw new ConfigError(
      'CLIENT_API_PORT needs DATABASE_URL: the client API gets processes of its own, and the embedded database (PGlite) belongs to one process',
    );
  }
  if (env.CLIENT_API_PORT !== undefined && env.CLIENT_API_PORT === env.PORT) {
    throw new ConfigError(`CLIENT_API_PORT must differ from PORT (${env.PORT})`);
  }
  if (
    env.METRICS_PORT !== undefined &&
    env.METRICS_PORT !== 0 &&
    env.METRICS_PORT === env.CLIENT_API_PORT
  ) {
    throw new ConfigError(`METRICS_PORT must differ from CLIENT_API_PORT (${env.CLIENT_API_PORT})`);
  }

  if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
    throw new ConfigError(
      `METRICS_PORT must differ from PORT (${env.PORT}): metrics get a listener of their own`,
    );
  }

  const emulatorHost = isDemoProject ? (env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099') : null;

  return {
    nodeEnv: env.NODE_ENV,
    isProduction,
    host: env.HOST,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    dataDir,
    webConcurrency: env.WEB_CONCURRENCY,
    clientApiListener:
      env.CLIENT_API_PORT === undefined
        ? null
        : {
            port: env.CLIENT_API_PORT,
            workers: env.CLIENT_API_WORKERS,
            consoleNiceness: env.CONSOLE_WORKER_NICENESS,
            consoleCpus: env.CONSOLE_WORKER_CPUS ?? null,
          },
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: resolve(dataDir, 'pglite') },
    identity: {
      projectId: env.FIREBASE_PROJECT_ID,
      webConfig: {
        apiKey: env.FIREBASE_API_KEY ?? 'demo-api-key',
        authDomain: env.FIREBASE_AUTH_DOMAIN ?? `${env.FIREBASE_PROJECT_ID}.firebaseapp.com`,
        projectId: env.FIREBASE_PROJECT_ID,
        ...(env.FIREBASE_APP_ID ? { appId: env.FIREBASE_APP_ID } : {}),
      },
      emulatorHost,
    },
    serverSecret: env.SERVER_SECRET ?? readOrCreateLocalSecret(dataDir),
    publicOrigin: env.PUBLIC_ORIGIN ? new URL(env.PUBLIC_ORIGIN).origin : null,
    stripeApiUrl: env.STRIPE_API_URL ?? null,
    trustProxyHops: env.TRUST_PROXY_HOPS,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    maxUploadBytes: env.MAX_UPLOAD_MB * 1024 * 1024,
    ownerSessionMs: env.OWNER_SESSION_DAYS * 24 * 60 * 60 * 1000,
    consoleDistDir: env.SERVE_CONSOLE
      ? resolve(env.CONSOLE_DIST_DIR ?? serverAssetPaths.consoleDistDirectory)
      : null,
    sdkPackagesDir: resolve(env.SDK_PACKAGES_DIR ?? serverAssetPaths.sdkPackagesDirectory),
    redisUrl: env.REDIS_URL ?? null,
    clientApi: {
      isLeanPathEnabled: env.CLIENT_API_LEAN_PATH,
      ipLimitPerMinute: env.CLIENT_API_IP_LIMIT_PER_MINUTE,
      loginFailureLimit: env.LOGIN_FAILURE_LIMIT,
      loginUsernameFailureLimit: env.LOGIN_USERNAME_FAILURE_LIMIT,
      loginIpFailureLimit: env.LOGIN_IP_FAILURE_LIMIT,
      loginFailureWindowMs: env.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
      licenseIpFailureLimit: env.LICENSE_FAILURES_PER_IP,
      licenseRangeFailureLimit: env.LICENSE_FAILURES_PER_RANGE,
      licenseKeyFailureLimit: env.LICENSE_FAILURES_PER_KEY,
      licenseAppFailureLimit: env.LICENSE_FAILURES_PER_APP,
      licenseFailureDelayMs: env.LICENSE_FAILURE_DELAY_MS,
      applicationCacheTtlMs: env.CLIENT_API_CACHE_TTL_SECONDS * 1000,
    },
    activity: {
      flushIntervalMs: env.ACTIVITY_FLUSH_INTERVAL_MS,
      batchSize: env.ACTIVITY_BATCH_SIZE,
      counterFoldIntervalMs: env.COUNTER_FOLD_INTERVAL_MS,
    },
    sseMaxConnectionsPerAccount: env.SSE_MAX_CONNECTIONS_PER_ACCOUNT,
    manageApiRateLimitPerMinute: env.MANAGE_API_RATE_LIMIT_PER_MINUTE,
    endUserPasswordMinLength: env.END_USER_PASSWORD_MIN_LENGTH,
    defaultAccountPermissions: env.DEFAULT_ACCOUNT_PERMISSIONS,
    retention: {
      sessionMs: env.SESSION_RETENTION_DAYS * DAY_MS,
      activityLogMs: env.ACTIVITY_LOG_RETENTION_DAYS * DAY_MS,
      sweepIntervalMs: env.RETENTION_SWEEP_INTERVAL_MINUTES * 60_000,
    },
    webhooks: {
      allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
      retryDelaysMs: env.WEBHOOK_RETRY_DELAYS_SECONDS.map((seconds) => seconds * 1000),
    },
    mail: {
      transport: env.SMTP_URL
        ? { kind: 'smtp', url: env.SMTP_URL }
        : isProduction
          ? null
          : { kind: 'mailbox' },
      from: env.MAIL_FROM ?? DEVELOPMENT_MAIL_FROM,
      pollIntervalMs: env.MAIL_POLL_INTERVAL_MS,
      retryDelaysMs: env.MAIL_RETRY_DELAYS_SECONDS.map((seconds) => seconds * 1000),
      requestLimits: {
        perAddressPerHour: env.MAIL_REQUESTS_PER_IP_PER_HOUR,
        perTargetPerHour: env.MAIL_REQUESTS_PER_ACCOUNT_PER_HOUR,
        perApplicationPerHour: env.MAIL_REQUESTS_PER_APP_PER_HOUR,
      },
    },
    metrics: {
      port: env.METRICS_PORT ?? null,
      host: env.METRICS_HOST,
      token: env.METRICS_TOKEN ?? null,
    },
  };
}

/**
 * Local installs get a secret generated once and kept beside the data it protects, so a
 * restart can still decrypt the signing keys it encrypted.
 */
/** https://, or http:// to this machine itself (localhost, 127.0.0.0/8, [::1]). */
function isHttpsOrLoopback(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  return (
    url.hostname === 'localhost' ||
    url.hostname.endsWith('.localhost') ||
    url.hostname === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(url.hostname)
  );
}

function readOrCreateLocalSecret(dataDir: string): string {
  const path = resolve(dataDir, 'server-secret');
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    try {
      writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      // Another process created it first: theirs is the one in use.
      return readFileSync(path, 'utf8').trim();
    }
  }
}

/**
 * One line that says which mode is running, so a server started on the emulator or on the
 * wrong database is noticed at once. Never includes credentials.
 */
export function describeMode(config: Config): string {
  const database =
    config.database.kind === 'pglite'
      ? `PGlite at ${config.database.dataDir}`
      : `PostgreSQL at ${postgresLocation(config.database.url)}`;
  const identity = config.identity.emulatorHost
    ? `Firebase Auth emulator at ${config.identity.emulatorHost} (project ${config.identity.projectId})`
    : `Firebase project ${config.identity.projectId}`;
  const publicOrigin = config.publicOrigin ?? "each request's own origin (PUBLIC_ORIGIN unset)";
  const console = config.consoleDistDir ? `served from ${config.consoleDistDir}` : 'not served';
  return `NODE_ENV=${config.nodeEnv}; database: ${database}; identity: ${identity}; public origin: ${publicOrigin}; console: ${console}`;
}

/** host:port/database of a postgres:// URL, without user or password. */
function postgresLocation(url: string): string {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default)';
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}/${database}`;
  } catch {
    return '(unparsable URL)';
  }
}
