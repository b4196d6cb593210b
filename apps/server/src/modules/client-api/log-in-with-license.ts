import { and, eq } from 'drizzle-orm';
import type {
  ActivityEvent,
  ClientApiCode,
  ClientAuthResponse,
  ClientLicenseLoginInput,
} from '@latchkey/contracts';
import { appUsers, licenseKeys } from '../../db/schema/index.ts';
import { isUniqueViolation, redactDatabaseError } from '../../lib/database-errors.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { writeActivityRows } from '../activity/index.ts';
import { licenseKeyDigest, redeemLicenseKey, type LicenseRefusalCode } from '../licenses/index.ts';
import { blockedEventOf } from './blocked-event.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';
import { completeLogin, type LoginContext } from './complete-login.ts';
import type { IdentifiedUser } from './identified-user.ts';
import type { KeyAndHolder } from './login-statements.ts';
import { loadIdentifiedUser } from './load-identified-user.ts';
import { insertPasswordlessAccount, unknownPasswordHash } from './passwordless-account.ts';
import type { LicenseClientContext } from './license-client-context.ts';
import { KeyRefused, licenseRedeemedRecord, refuseLicense } from './license-refusals.ts';

/** The end user a key alone logs in: named after the key's id, never after its text. */
export const keyUsername = (licenseId: string) => `key-${licenseId}`;

/**
 * POST /api/v1/license/login: log in with a key alone (KeyAuth's `license`). The first use
 * creates an end user named `key-<licence id>` and redeems the key for them in one
 * transaction (the text of the key would otherwise sit in the users table, the log and every
 * webhook); later uses log that user in. Then the checks and the answer of a login: the
 * blacklist, standing (a banned key's lapsed subscription included), version, HWID (the first
 * login binds under the lock), a session token. A key redeemed by a registered account cannot
 * log in alone (LICENSE_USED): its holder logs in with a password.
 */
export async function logInWithLicense({
  ctx,
  input,
}: {
  ctx: LicenseClientContext & LoginContext;
  input: ClientLicenseLoginInput;
}): Promise<ClientAuthResponse> {
  const { application, activity } = ctx;
  if (!application.isActive) return appDisabled();
  const now = ctx.clock.now();
  // One statement reads the key and its holder, the blacklist match and (with the database
  // store) the licence throttle counters; with Redis the counters come first. Either way a
  // throttled guess is refused before anything else is answered.
  const attempt = {
    applicationId: application.id,
    ipAddress: ctx.ipAddress,
    licenseKey: input.license_key,
  };
  const throttleKeys = ctx.licenseThrottles.storeKeysOf(attempt);
  if (!throttleKeys) await ctx.licenseThrottles.admit(attempt);
  const digest = keyDigestOf(ctx, input.license_key);
  const lookup = await ctx.statements.findKeyAndBlock(
    {
      ownerAccountId: application.ownerAccountId,
      applicationId: application.id,
      ipAddress: ctx.ipAddress,
      hwid: input.hwid,
    },
    // A text no mask makes is looked up as nothing (LICENSE_INVALID below).
    digest ?? '',
    throttleKeys ?? [],
  );
  if (throttleKeys) await ctx.licenseThrottles.admit(attempt, lookup.throttles);
  const { blockedBy } = lookup;
  const metadata = {
    action: 'license_login',
    ...(input.hwid ? { hwid: input.hwid } : {}),
    version: input.version,
  };
  if (blockedBy) {
    await activity.recordActivity({
      applicationId: application.id,
      appUserId: null,
      username: null,
      event: blockedEventOf[blockedBy],
      success: false,
      ipAddress: ctx.ipAddress,
      errorMessage: clientMessages.blacklisted,
      metadata: { ...metadata, blockedBy, code: 'BLACKLISTED' },
      createdAt: now,
    });
    return refusal('BLACKLISTED', clientMessages.blacklisted);
  }

  const found = await findKeyUser(
    ctx,
    input.license_key,
    now,
    'license_login',
    async () => lookup.key,
  );
  if ('code' in found) {
    return refuseLicense(ctx, {
      ...found,
      licenseKey: input.license_key,
      username: null,
      appUserId: null,
      action: 'license_login',
      now,
    });
  }
  // A returning key user came with the key; a first use made the user just now.
  const user =
    found.holder ??
    (await loadIdentifiedUser(ctx.db, { applicationId: application.id, userId: found.userId }));
  if (!user) return refusal('LICENSE_INVALID', clientMessages.licenseInvalid);

  const refuse = async (code: ClientApiCode, event: ActivityEvent, message: string) => {
    activity.countFailedLogin(user.id);
    await activity.recordActivity({
      applicationId: application.id,
      appUserId: user.id,
      username: user.username,
      event,
      success: false,
      ipAddress: ctx.ipAddress,
      errorMessage: message,
      metadata: { ...metadata, code },
      createdAt: now,
    });
    return refusal(code, message);
  };
  return completeLogin(ctx, {
    user,
    version: input.version,
    hwid: input.hwid,
    deviceName: input.device_name,
    metadata,
    now,
    refuse,
    // A key user has no password to be wrong about: only the user's deletion loses the race.
    onNotWritten: async () => refusal('LICENSE_INVALID', clientMessages.licenseInvalid),
  });
}

export type FoundKeyUser =
  | { userId: string; holder?: IdentifiedUser }
  | { code: LicenseRefusalCode; licenseId: string | null };

/** A key by its digest (the application is the lookup's), with its holder when it has one. */
type KeyLookup = (
  keyDigest: string,
) => Promise<(Omit<KeyAndHolder, 'holder'> & { holder?: IdentifiedUser | null }) | undefined>;

/** What finding (or creating) a key's own user needs: the application by id is enough. */
export type KeyUserContext = Pick<
  LicenseClientContext,
  'db' | 'serverSecret' | 'ipAddress' | 'activity' | 'licenseThrottles'
> & { application: { id: number } };

/**
 * The key's own user, created (and the key redeemed) on its first use: key login's, and the
 * portal's offline activation with a key. A key redeemed by a registered account is LICENSE_USED:
 * its holder signs in with a password instead.
 */
export async function findKeyUser(
  ctx: KeyUserContext,
  key: string,
  now: Date,
  /** What the events of a first use say did it. */
  action: 'license_login' | 'portal' = 'license_login',
  /** How the key is read (key login's prepared statement, which brings the holder too). */
  lookUp: KeyLookup = (keyDigest) => readKey(ctx, keyDigest),
): Promise<FoundKeyUser> {
  const digest = keyDigestOf(ctx, key);
  const row = digest === null ? undefined : await lookUp(digest);
  if (!row) return { code: 'LICENSE_INVALID', licenseId: null };
  if (row.state === 'banned') return { code: 'LICENSE_BANNED', licenseId: row.id };
  if (row.state === 'used') {
    return row.usedBy && row.usedByName === keyUsername(row.id)
      ? { userId: row.usedBy, ...(row.holder ? { holder: row.holder } : {}) }
      : { code: 'LICENSE_USED', licenseId: row.id };
  }
  if (row.redeemBy && row.redeemBy <= now) return { code: 'LICENSE_EXPIRED', licenseId: row.id };
  return createKeyUser(ctx, { licenseId: row.id, key: key.trim(), now, action });
}

/** The key alone, and the name of whoever used it (the portal's offline activation). */
async function readKey(ctx: KeyUserContext, keyDigest: string) {
  const [row] = await ctx.db
    .select({
      id: licenseKeys.id,
      state: licenseKeys.state,
      redeemBy: licenseKeys.redeemBy,
      usedBy: appUsers.id,
      usedByName: appUsers.username,
    })
    .from(licenseKeys)
    .leftJoin(appUsers, eq(appUsers.id, licenseKeys.usedByUserId))
    .where(
      and(eq(licenseKeys.applicationId, ctx.application.id), eq(licenseKeys.keyDigest, keyDigest)),
    );
  return row;
}

/** The digest a key is looked up by; null for a text no mask makes (blank, or too long). */
function keyDigestOf(ctx: Pick<KeyUserContext, 'serverSecret'>, key: string): string | null {
  const text = key.trim();
  return text === '' || text.length > 128 ? null : licenseKeyDigest(text, ctx.serverSecret);
}

/**
 * The key's first use: its user and the redemption in one transaction, with their events.
 * Two first uses at once: one creates the user, the other meets the unique username (or the
 * key already used) and logs in the user the first one made.
 */
async function createKeyUser(
  ctx: KeyUserContext,
  input: { licenseId: string; key: string; now: Date; action: 'license_login' | 'portal' },
): Promise<FoundKeyUser> {
  const { application } = ctx;
  const { now } = input;
  const passwordHash = await unknownPasswordHash();
  const username = keyUsername(input.licenseId);
  try {
    const outcome = await ctx.db.transaction(async (tx) => {
      const { userId, registered } = await insertPasswordlessAccount(tx, {
        applicationId: application.id,
        username,
        passwordHash,
        expiresAt: null,
        action: input.action,
        ipAddress: ctx.ipAddress,
        now,
      });
      const redemption = await redeemLicenseKey(tx, {
        applicationId: application.id,
        appUserId: userId,
        key: input.key,
        now,
        serverSecret: ctx.serverSecret,
      });
      if (!redemption.isRedeemed) throw new KeyRefused(redemption.code, redemption.licenseId);
      const records: ActivityRecord[] = [
        registered,
        licenseRedeemedRecord(ctx, {
          appUserId: userId,
          username,
          licenseId: redemption.licenseId,
          planName: redemption.planName,
          action: input.action,
          now,
        }),
      ];
      const queued = await writeActivityRows(tx, records);
      return { userId, records, queued };
    });
    outcome.records.forEach((record, index) =>
      ctx.activity.noteWritten(record, index === outcome.records.length - 1 ? outcome.queued : 0),
    );
    return { userId: outcome.userId };
  } catch (error) {
    // Lapsed or taken between the look and the claim: nothing was created.
    if (error instanceof KeyRefused) return { code: error.code, licenseId: error.licenseId };
    if (isUniqueViolation(error, 'app_users_application_username_idx')) {
      return findKeyUserAfterRace(ctx, input.licenseId);
    }
    throw redactDatabaseError(error);
  }
}

async function findKeyUserAfterRace(ctx: KeyUserContext, licenseId: string): Promise<FoundKeyUser> {
  const [user] = await ctx.db
    .select({ id: appUsers.id })
    .from(appUsers)
    .where(
      and(
        eq(appUsers.applicationId, ctx.application.id),
        eq(appUsers.username, keyUsername(licenseId)),
      ),
    );
  return user ? { userId: user.id } : { code: 'LICENSE_USED', licenseId };
}
