import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ownerAccounts } from './owner-accounts.ts';

/**
 * A vendor's program: its API key, signing key, policy and end-user messages. Its files
 * (app_files, below) are defined in this file too: each table references the other (a file
 * belongs to an application; an application names its current release file), and two files
 * that import each other would be a cycle.
 */
export const applications = pgTable(
  'applications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => ownerAccounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    apiKey: text('api_key').notNull().unique(),
    isActive: boolean('is_active').notNull().default(true),
    version: text('version').notNull().default('1.0.0'),
    hwidLockEnabled: boolean('hwid_lock_enabled').notNull().default(false),
    /** Concurrent sessions per end user; null is unlimited. Starting one more ends the oldest. */
    maxSessionsPerUser: integer('max_sessions_per_user'),
    /**
     * Registration needs a licence key, and login, verify and heartbeat refuse a user
     * without an active subscription. Off by default, so older applications behave as before.
     */
    isLicenseRequired: boolean('license_required').notNull().default(false),
    /** Devices an end user may bind under HWID lock (1: the seed's lock). */
    maxDevices: integer('max_devices').notNull().default(1),
    /** End users may release their own devices, once per `reset_cooldown_hours`. */
    isSelfServiceReset: boolean('self_service_reset').notNull().default(false),
    resetCooldownHours: integer('reset_cooldown_hours').notNull().default(168),
    /** A device unseen this long gives its seat to a new one; null is never. */
    releaseInactiveAfterDays: integer('release_inactive_after_days'),
    /** The longest TTL of an offline licence (license/checkout), in days. */
    maxOfflineDays: integer('max_offline_days').notNull().default(30),
    /**
     * The file a VERSION_MISMATCH answer offers as the update. Cleared when that
     * file is deleted.
     */
    currentReleaseFileId: uuid('current_release_file_id').references(
      (): AnyPgColumn => appFiles.id,
      { onDelete: 'set null' },
    ),
    /** The end-user portal: off by default; its address is the public id. */
    isPortalEnabled: boolean('portal_enabled').notNull().default(false),
    portalName: text('portal_name'),
    /** 20 hex characters in the portal's address: public, and never the API key. */
    portalPublicId: text('portal_public_id')
      .notNull()
      .unique()
      .default(sql`substr(md5(gen_random_uuid()::text), 1, 20)`),
    /** The display name of the mail sent to end users; null: the application's name. */
    mailSenderName: text('mail_sender_name'),
    /** Where end users' answers to that mail go (the vendor); null: no Reply-To. */
    mailReplyTo: text('mail_reply_to'),
    /** Login, key login and verify refuse an end user whose address is not confirmed. */
    requireVerifiedEmail: boolean('require_verified_email').notNull().default(false),
    /** Mail the end user when a new device binds to their account. */
    newDeviceMail: boolean('new_device_mail').notNull().default(false),
    /** Days before an end of access to mail a reminder; null: no reminders. */
    expiryReminderDays: integer('expiry_reminder_days'),
    /** Days a machine's trial lasts (POST /api/v1/trial); null: no trial is offered. */
    trialDays: integer('trial_days'),
    /** What a trial grants: the entitlements of the application's trial plan, kept in step. */
    trialEntitlements: text('trial_entitlements')
      .array()
      .notNull()
      .default(sql`'{}'`),
    loginSuccessMessage: text('login_success_message').notNull(),
    loginFailedMessage: text('login_failed_message').notNull(),
    accountDisabledMessage: text('account_disabled_message').notNull(),
    accountExpiredMessage: text('account_expired_message').notNull(),
    versionMismatchMessage: text('version_mismatch_message').notNull(),
    hwidMismatchMessage: text('hwid_mismatch_message').notNull(),
    /** Raw 32-byte Ed25519 public key, hex. */
    signingPublicKey: text('signing_public_key').notNull(),
    /** Ed25519 private key (PKCS#8), AES-256-GCM encrypted with the server secret. */
    signingPrivateKeyEncrypted: text('signing_private_key_encrypted').notNull(),
    /**
     * The KeyAuth-compatible client API (/api/1.2, /api/1.3) answers for this application, found
     * by (keyauth_owner_id, keyauth_name) as KeyAuth's clients send them. Off by default.
     */
    keyauthCompatibility: boolean('keyauth_compatibility').notNull().default(false),
    /** KeyAuth's `ownerid`: exactly 10 characters; unique together with the name. */
    keyauthOwnerId: text('keyauth_owner_id'),
    keyauthName: text('keyauth_name'),
    /** The 1.2 HMAC secret (64 hex), AES-256-GCM sealed with the server secret. */
    keyauthSecretSealed: text('keyauth_secret_sealed'),
    /** How long a KeyAuth `init` session lives, in hours. */
    keyauthSessionHours: integer('keyauth_session_hours').notNull().default(6),
    totalApiRequests: bigint('total_api_requests', { mode: 'number' }).notNull().default(0),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('applications_owner_idx').on(table.ownerAccountId),
    uniqueIndex('applications_keyauth_idx').on(table.keyauthOwnerId, table.keyauthName),
  ],
);

export type Application = typeof applications.$inferSelect;

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A file an application's programs may download: an installer, an update. Its
 * bytes are in `app_file_chunks`, in the database, so every instance can serve it, PGlite
 * works too and a PostgreSQL backup holds it. A row is written when an upload starts
 * (`is_complete` false, invisible to lists and downloads) and completed with its size and
 * SHA-256 when the last chunk is in, so no upload holds a transaction open for its duration.
 */
export const appFiles = pgTable(
  'app_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    version: text('version').notNull(),
    platform: text('platform'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    /** Hex SHA-256 of the whole file; null until the upload completes. */
    sha256: text('sha256'),
    /** Bytes per chunk row (the last one may be shorter); kept per file so it can change. */
    chunkSizeBytes: integer('chunk_size_bytes').notNull(),
    requiresSession: boolean('requires_session').notNull().default(true),
    isComplete: boolean('is_complete').notNull().default(false),
    downloadCount: bigint('download_count', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('app_files_app_idx').on(table.applicationId, table.createdAt),
    // The sweep of uploads a crash left behind.
    index('app_files_incomplete_idx')
      .on(table.createdAt)
      .where(sql`not ${table.isComplete}`),
  ],
);

export type AppFile = typeof appFiles.$inferSelect;

/** The bytes of an `app_files` row, in order; `chunk_index` n holds bytes from n × chunk size. */
export const appFileChunks = pgTable(
  'app_file_chunks',
  {
    fileId: uuid('file_id')
      .notNull()
      .references(() => appFiles.id, { onDelete: 'cascade' }),
    chunkIndex: integer('chunk_index').notNull(),
    data: bytea('data').notNull(),
  },
  (table) => [primaryKey({ columns: [table.fileId, table.chunkIndex] })],
);
