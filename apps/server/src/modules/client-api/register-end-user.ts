import { and, eq, getTableColumns, isNotNull, sql } from 'drizzle-orm';
import type { ClientAuthResponse, ClientRegisterInput } from '@latchkey/contracts';
import { appUsers, licenseKeys } from '../../db/schema/index.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation, redactDatabaseError } from '../../lib/database-errors.ts';
import { hashPassword } from '../../lib/password-hashing.ts';
import { blockedEventOf } from './blocked-event.ts';
import type { AppUser } from '../../db/schema/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { writeActivityRows } from '../activity/index.ts';
import { addDevice } from '../devices/index.ts';
import { redeemLicenseKey } from '../licenses/index.ts';
import { licensingAnswer, readHeldSubscriptions } from '../subscriptions/index.ts';
import type { LicenseClientContext } from './license-client-context.ts';
import { KeyRefused, licenseRedeemedRecord, refuseLicense } from './license-refusals.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';
import { invalidRequest } from './client-api-error.ts';
import { queueEmailVerificationMail, type MailOutbox } from '../mail/index.ts';

const USERNAME_INDEX = 'app_users_application_username_idx';

/**
 * POST /api/v1/register: a new end user of the API key's application. The blacklist (IP,
 * username, e-mail, HWID) is checked before anything is created or hashed; a HWID sent here
 * is the user's first device, so under HWID lock this machine holds the first seat. No expiry unless the client
 * asks for one. A `license_key` (required when the application requires a licence) is
 * redeemed in the transaction that creates the user. Where the application requires verified
 * addresses, an address is required, and the link that confirms it is queued in that
 * transaction too.
 */
export async function registerEndUser({
  ctx,
  input,
}: {
  ctx: LicenseClientContext & { mail: MailOutbox };
  input: ClientRegisterInput;
}): Promise<ClientAuthResponse> {
  const { application, activity } = ctx;
  if (!application.isActive) return appDisabled();
  if (application.requireVerifiedEmail && !input.email) {
    throw invalidRequest('email: This application confirms e-mail addresses: please enter yours');
  }
  const now = ctx.clock.now();

  const blockedBy = await ctx.blacklist.find({
    ownerAccountId: application.ownerAccountId,
    applicationId: application.id,
    ipAddress: ctx.ipAddress,
    username: input.username,
    email: input.email,
    hwid: input.hwid,
  });
  // Both answers that record an event wait for its commit: acknowledged means written.
  if (blockedBy) {
    await activity.recordActivity({
      applicationId: application.id,
      appUserId: null,
      username: input.username,
      event: blockedEventOf[blockedBy],
      success: false,
      ipAddress: ctx.ipAddress,
      errorMessage: clientMessages.blacklisted,
      metadata: {
        action: 'register',
        blockedBy,
        ...(input.hwid ? { hwid: input.hwid } : {}),
        code: 'BLACKLISTED',
      },
      createdAt: now,
    });
    return refusal('BLACKLISTED', clientMessages.blacklisted);
  }

  const usernameTaken = () => refusal('USERNAME_TAKEN', clientMessages.usernameTaken);
  if (application.isLicenseRequired && !input.license_key) {
    return refusal('LICENSE_REQUIRED', clientMessages.licenseRequired);
  }
  // A throttled key guess costs neither a lookup nor a hash.
  if (input.license_key) {
    await ctx.licenseThrottles.admit({
      applicationId: application.id,
      ipAddress: ctx.ipAddress,
      licenseKey: input.license_key,
    });
  }
  const [existing] = await ctx.db
    .select({ id: appUsers.id })
    .from(appUsers)
    .where(and(eq(appUsers.applicationId, application.id), eq(appUsers.username, input.username)))
    .limit(1);
  if (existing) return usernameTaken();

  const passwordHash = await hashPassword(input.password);
  const metadata = { ...(input.hwid ? { hwid: input.hwid } : {}), code: 'OK' };
  let written: {
    user: AppUser;
    records: ActivityRecord[];
    isConfirmationMailed: boolean;
    queued: number;
  };
  try {
    // One transaction: no user without the key when the key fails, no key used when the user
    // fails, and the events are written with them (acknowledged means written).
    written = await ctx.db.transaction(async (tx) => {
      let [user] = await tx
        .insert(appUsers)
        .values({
          applicationId: application.id,
          username: input.username,
          email: input.email,
          passwordHash,
          expiresAt: input.expiresAt,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!user) throw new Error('insert returned no row');
      const records: ActivityRecord[] = [
        {
          applicationId: application.id,
          appUserId: user.id,
          username: user.username,
          event: 'user_register',
          success: true,
          ipAddress: ctx.ipAddress,
          errorMessage: null,
          // Only what the client sent: an absent hwid is not recorded as null.
          metadata,
          createdAt: now,
        },
      ];
      if (input.hwid) {
        // The registering machine is the user's first device.
        const added = await addDevice(tx, {
          applicationId: application.id,
          appUserId: user.id,
          username: user.username,
          hwid: input.hwid,
          deviceName: null,
          ipAddress: ctx.ipAddress,
          now,
        });
        if (added) records.push(added);
      }
      if (input.license_key) {
        const redemption = await redeemLicenseKey(tx, {
          applicationId: application.id,
          appUserId: user.id,
          key: input.license_key,
          now,
          serverSecret: ctx.serverSecret,
        });
        if (!redemption.isRedeemed) throw new KeyRefused(redemption.code, redemption.licenseId);
        // A key a shop sold names its buyer's address: an account registered with it and no
        // address of its own takes that one, so the vendor can reach the buyer who uses it.
        if (!input.email) user = await withBuyerEmail(tx, user, redemption.licenseId);
        records.push(
          licenseRedeemedRecord(ctx, {
            appUserId: user.id,
            username: user.username,
            licenseId: redemption.licenseId,
            planName: redemption.planName,
            action: 'register',
            now,
          }),
        );
      }
      const isConfirmationMailed =
        application.requireVerifiedEmail &&
        ctx.mail.isAvailable &&
        (await queueEmailVerificationMail(tx, {
          applicationId: application.id,
          appUserId: user.id,
          serverSecret: ctx.serverSecret,
        }));
      return {
        user,
        records,
        isConfirmationMailed,
        queued: await writeActivityRows(tx, records),
      };
    });
  } catch (error) {
    if (error instanceof KeyRefused) {
      return refuseLicense(ctx, {
        licenseKey: input.license_key ?? '',
        code: error.code,
        licenseId: error.licenseId,
        username: input.username,
        appUserId: null,
        action: 'register',
        now,
      });
    }
    // Two registrations of one name racing: the unique index decides.
    if (isUniqueViolation(error, USERNAME_INDEX)) return usernameTaken();
    throw redactDatabaseError(error);
  }
  const { user: created } = written;
  if (written.isConfirmationMailed) ctx.mail.wake();
  written.records.forEach((record, index) =>
    activity.noteWritten(record, index === written.records.length - 1 ? written.queued : 0),
  );
  return {
    success: true,
    message: application.requireVerifiedEmail
      ? clientMessages.registeredConfirmEmail
      : clientMessages.registered,
    code: 'OK',
    user_id: created.id,
    username: created.username,
    email: created.email,
    expires_at: created.expiresAt?.toISOString() ?? null,
    hwid_locked: application.hwidLockEnabled && input.hwid !== null,
    // Only a registration with a key answers what it holds (older clients see no change).
    ...(input.license_key
      ? licensingAnswer(await readHeldSubscriptions(ctx.db, created.id), now)
      : {}),
  };
}

/** The user with the buyer's address of the key they registered with, when it has one. */
async function withBuyerEmail(tx: Database, user: AppUser, licenseId: string): Promise<AppUser> {
  const [updated] = await tx
    .update(appUsers)
    .set({ email: sql`${licenseKeys.buyerEmail}` })
    .from(licenseKeys)
    .where(
      and(
        eq(appUsers.id, user.id),
        eq(licenseKeys.id, licenseId),
        isNotNull(licenseKeys.buyerEmail),
      ),
    )
    .returning(getTableColumns(appUsers));
  return updated ?? user;
}
