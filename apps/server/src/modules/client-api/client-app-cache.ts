import { and, eq, sql } from 'drizzle-orm';
import type { ClientUpdate } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { appFiles, applications } from '../../db/schema/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { createEd25519Signer, type Ed25519Signer } from '../../lib/ed25519-signer.ts';
import { decryptSigningKey } from '../../lib/signing-keys.ts';
import { isEndUserChange, type ApplicationEvents } from '../../events/application-events.ts';

/** What the client API needs of an application, with its signing key ready to use. */
export interface ClientApplication {
  id: number;
  ownerAccountId: string;
  apiKey: string;
  isActive: boolean;
  version: string;
  hwidLockEnabled: boolean;
  /** Concurrent sessions per end user; null is unlimited. */
  maxSessionsPerUser: number | null;
  /** Users without an active subscription are refused (NO_ACTIVE_SUBSCRIPTION). */
  isLicenseRequired: boolean;
  /** Seats under HWID lock, self-service resets and their cooldown, inactivity release. */
  maxDevices: number;
  isSelfServiceReset: boolean;
  resetCooldownHours: number;
  releaseInactiveAfterDays: number | null;
  /** The longest TTL of an offline licence, in days. */
  maxOfflineDays: number;
  /** Login, key login and verify refuse an unconfirmed address (EMAIL_NOT_VERIFIED). */
  requireVerifiedEmail: boolean;
  /** A new device bound under HWID lock is announced to the end user by mail. */
  newDeviceMail: boolean;
  /**
   * What a VERSION_MISMATCH answer offers, read with the application (no query of
   * its own); null without a complete current release. Setting, clearing or deleting it drops
   * the cached application everywhere (an `updated` change).
   */
  update: ClientUpdate | null;
  /** When `update` was published (its upload): judged against holders' updates windows. */
  releasedAt: Date | null;
  /** Raw Ed25519 public key, hex: the HKDF salt of encrypted offline licences. */
  signingPublicKey: string;
  loginSuccessMessage: string;
  loginFailedMessage: string;
  accountDisabledMessage: string;
  accountExpiredMessage: string;
  versionMismatchMessage: string;
  hwidMismatchMessage: string;
  /** Signs with the decrypted private key: decrypting it per request would cost more than signing. */
  sign: Ed25519Signer;
}

export interface ClientAppCache {
  /** A fresh cached application, without touching the database (the hot path). */
  peek(apiKey: string): ClientApplication | undefined;
  /** The application with this API key, from the cache or one indexed lookup; null if none. */
  load(apiKey: string): Promise<ClientApplication | null>;
  readonly size: number;
}

/**
 * Applications by API key, in memory. An entry is dropped as soon as the owner API changes
 * or deletes the application, in this instance or another (applicationEvents, which other
 * instances reach through PostgreSQL NOTIFY); everything is dropped when that link was
 * interrupted. The TTL is the backstop for a change the link could not carry. Unknown keys
 * are not cached (they are rate-limited per IP instead).
 */
export function createClientAppCache(options: {
  db: Database;
  serverSecret: string;
  clock: Clock;
  applicationEvents: ApplicationEvents;
  ttlMs: number;
  maxEntries?: number;
}): ClientAppCache {
  const { db, serverSecret, clock, ttlMs } = options;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { application: ClientApplication; expiresAt: number }>();
  const loading = new Map<string, Promise<ClientApplication | null>>();
  // Bumped by every change: a lookup that started before a change must not cache its result.
  let generation = 0;
  // False while the link to other instances is down: their changes would go unheard.
  let isLinked = true;

  options.applicationEvents.onChange((change) => {
    if (isEndUserChange(change)) return;
    generation += 1;
    if (change.kind === 'resync') {
      isLinked = change.isLinked;
      entries.clear();
      loading.clear();
      return;
    }
    entries.delete(change.apiKey);
    loading.delete(change.apiKey);
  });

  const byApiKey = db
    .select({
      id: applications.id,
      ownerAccountId: applications.ownerAccountId,
      apiKey: applications.apiKey,
      isActive: applications.isActive,
      version: applications.version,
      hwidLockEnabled: applications.hwidLockEnabled,
      maxSessionsPerUser: applications.maxSessionsPerUser,
      isLicenseRequired: applications.isLicenseRequired,
      maxDevices: applications.maxDevices,
      isSelfServiceReset: applications.isSelfServiceReset,
      resetCooldownHours: applications.resetCooldownHours,
      releaseInactiveAfterDays: applications.releaseInactiveAfterDays,
      maxOfflineDays: applications.maxOfflineDays,
      requireVerifiedEmail: applications.requireVerifiedEmail,
      newDeviceMail: applications.newDeviceMail,
      loginSuccessMessage: applications.loginSuccessMessage,
      loginFailedMessage: applications.loginFailedMessage,
      accountDisabledMessage: applications.accountDisabledMessage,
      accountExpiredMessage: applications.accountExpiredMessage,
      versionMismatchMessage: applications.versionMismatchMessage,
      hwidMismatchMessage: applications.hwidMismatchMessage,
      signingPublicKey: applications.signingPublicKey,
      signingPrivateKeyEncrypted: applications.signingPrivateKeyEncrypted,
      releaseFileId: appFiles.id,
      releaseVersion: appFiles.version,
      releaseSizeBytes: appFiles.sizeBytes,
      releaseSha256: appFiles.sha256,
      releasedAt: appFiles.createdAt,
    })
    .from(applications)
    .leftJoin(
      appFiles,
      and(eq(appFiles.id, applications.currentReleaseFileId), eq(appFiles.isComplete, true)),
    )
    .where(eq(applications.apiKey, sql.placeholder('apiKey')))
    .limit(1)
    .prepare('client_api_application_by_key');

  async function fetchApplication(apiKey: string): Promise<ClientApplication | null> {
    const [row] = await byApiKey.execute({ apiKey });
    if (!row) return null;
    const {
      signingPublicKey,
      signingPrivateKeyEncrypted,
      releaseFileId,
      releaseVersion,
      releaseSizeBytes,
      releaseSha256,
      ...application
    } = row;
    return {
      ...application,
      update:
        releaseFileId !== null &&
        releaseVersion !== null &&
        releaseSizeBytes !== null &&
        releaseSha256 !== null
          ? {
              version: releaseVersion,
              file_id: releaseFileId,
              size: releaseSizeBytes,
              sha256: releaseSha256,
            }
          : null,
      signingPublicKey,
      sign: createEd25519Signer(
        decryptSigningKey({ signingPublicKey, signingPrivateKeyEncrypted }, serverSecret),
      ),
    };
  }

  return {
    peek(apiKey) {
      const entry = entries.get(apiKey);
      if (!entry) return undefined;
      if (entry.expiresAt <= clock.now().getTime()) {
        entries.delete(apiKey);
        return undefined;
      }
      return entry.application;
    },
    load(apiKey) {
      const cached = this.peek(apiKey);
      if (cached) return Promise.resolve(cached);
      const inFlight = loading.get(apiKey);
      if (inFlight) return inFlight;
      const startedAt = generation;
      const lookup = fetchApplication(apiKey)
        .then((application) => {
          if (application && generation === startedAt && isLinked) {
            if (entries.size >= maxEntries) {
              const oldest = entries.keys().next();
              if (!oldest.done) entries.delete(oldest.value);
            }
            entries.set(apiKey, { application, expiresAt: clock.now().getTime() + ttlMs });
          }
          return application;
        })
        .finally(() => {
          if (loading.get(apiKey) === lookup) loading.delete(apiKey);
        });
      loading.set(apiKey, lookup);
      return lookup;
    },
    get size() {
      return entries.size;
    },
  };
}
