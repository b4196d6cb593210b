import { and, eq } from 'drizzle-orm';
import {
  ACTIVATION_NEEDS_SIGN_IN,
  ACTIVATION_NO_BORROWING,
  ACTIVATION_NO_FREE_DEVICE,
  ACTIVATION_NO_FREE_SEAT,
  ACTIVATION_OTHER_ACCOUNT,
  ACTIVATION_OTHER_APPLICATION,
  ACTIVATION_REQUEST_MALFORMED,
  type PortalOfflineActivation,
} from '@latchkey/contracts';
import {
  appUserDevices,
  appUsers,
  applications,
  emailVerifiedColumn,
} from '../../db/schema/index.ts';
import { AppError, badRequest, forbidden, notFound, unauthenticated } from '../../lib/errors.ts';
import { createEd25519Signer } from '../../lib/ed25519-signer.ts';
import { decryptSigningKey } from '../../lib/signing-keys.ts';
import {
  clientMessages,
  findKeyUser,
  issueOfflineLicense,
  licenseCheckoutRecord,
  licenseRefusalMessages,
  refuseLicense,
  standingRefusal,
} from '../client-api/index.ts';
import { bindDevice } from '../devices/index.ts';
import { borrowLease, releaseSeat, seatTermsOf, takeSeat } from '../seats/index.ts';
import {
  type FloatingTerms,
  heldSubscriptionsJson,
  licensedUntilMs,
  parseHeldSubscriptions,
} from '../subscriptions/index.ts';
import { parseActivationRequest } from './activation-request.ts';
import { announcePortalChange, type PortalContext } from './portal-context.ts';
import type { FoundPortalSession } from './portal-sessions.ts';

/**
 * POST /api/portal/:publicId/offline-activation: the air-gapped activation. The program on a
 * machine without the network wrote an activation request (application, HWID, licence key or
 * username, nonce); its user pastes it here from any computer and gets back an offline licence
 * for that machine, as license/checkout issues them, for the application's `maxOfflineDays`.
 *
 * Who it is for: the signed-in account (a request naming another is refused), else the holder
 * of the request's licence key, found or created as key login does (a key redeemed by a
 * registered account needs its holder to sign in; refused keys count against the licence
 * throttles). The holder must be in good standing, as at login. Under HWID lock the machine is
 * one of the account's devices like any other: bound to a free seat (none free is a 409), and
 * marked activated offline, which the owner and the portal show. The licence and the nonce are
 * a `license_checkout` event with `via: offline_activation`.
 */
export async function activateOffline({
  ctx,
  session,
  requestText,
}: {
  ctx: PortalContext;
  session: FoundPortalSession | null;
  requestText: string;
}): Promise<PortalOfflineActivation> {
  const { portal } = ctx;
  const now = ctx.clock.now();
  const request = parseActivationRequest(requestText);
  if (!request) throw badRequest(ACTIVATION_REQUEST_MALFORMED);
  const [application] = await ctx.db
    .select({
      id: applications.id,
      isActive: applications.isActive,
      signingPublicKey: applications.signingPublicKey,
      signingPrivateKeyEncrypted: applications.signingPrivateKeyEncrypted,
      hwidLockEnabled: applications.hwidLockEnabled,
      maxDevices: applications.maxDevices,
      releaseInactiveAfterDays: applications.releaseInactiveAfterDays,
      newDeviceMail: applications.newDeviceMail,
      maxOfflineDays: applications.maxOfflineDays,
    })
    .from(applications)
    .where(eq(applications.id, portal.id));
  if (!application) throw notFound(clientMessages.appDisabled);
  if (request.app !== application.signingPublicKey.toLowerCase()) {
    throw badRequest(ACTIVATION_OTHER_APPLICATION);
  }
  if (!application.isActive) throw forbidden(clientMessages.appDisabled);

  const userId = await holderOf(ctx, session, request, now);
  const [user] = await ctx.db
    .select({
      id: appUsers.id,
      username: appUsers.username,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
      isEmailVerified: emailVerifiedColumn(),
      held: heldSubscriptionsJson(appUsers.id),
    })
    .from(appUsers)
    .where(and(eq(appUsers.id, userId), eq(appUsers.applicationId, application.id)));
  if (!user) throw notFound(clientMessages.userNotFound);
  const held = parseHeldSubscriptions(user.held);
  const standing = standingRefusal(
    portal,
    { ...user, licensedUntilMs: licensedUntilMs(held) },
    now,
  );
  if (standing) throw forbidden(standing.message);

  // A floating plan's holder: the computer holds a seat, borrowed for as long as the licence.
  const terms = seatTermsOf(held, now);
  const ttlDays = terms
    ? Math.min(application.maxOfflineDays, terms.maxBorrowDays)
    : application.maxOfflineDays;
  const seat = terms
    ? await borrowSeatOffline(ctx, {
        applicationId: application.id,
        userId: user.id,
        terms,
        hwid: request.hwid,
        nonce: request.nonce,
        until: new Date(now.getTime() + ttlDays * 86_400_000),
        now,
      })
    : null;
  if (application.hwidLockEnabled) {
    try {
      await bindMachine(ctx, {
        application,
        userId: user.id,
        hwid: request.hwid,
        deviceName: request.device_name ?? null,
        now,
      });
    } catch (error) {
      if (seat) await releaseSeat(ctx.db, seat);
      throw error;
    }
  }

  const { license, content } = issueOfflineLicense({
    application: {
      id: application.id,
      signingPublicKey: application.signingPublicKey,
      isLicenseRequired: portal.isLicenseRequired,
      sign: createEd25519Signer(decryptSigningKey(application, ctx.serverSecret)),
    },
    holder: {
      userId: user.id,
      username: user.username,
      hwid: request.hwid,
      expiresAt: user.expiresAt,
      held,
    },
    ttlSeconds: ttlDays * 86_400,
    encrypt: request.encrypt === true,
    now,
  });
  await ctx.activity.recordActivity(
    licenseCheckoutRecord({
      applicationId: application.id,
      holder: { userId: user.id, username: user.username, hwid: request.hwid },
      content,
      isEncrypted: request.encrypt === true,
      ipAddress: ctx.ipAddress,
      details: { via: 'offline_activation', nonce: request.nonce, ttlSeconds: ttlDays * 86_400 },
      now,
    }),
  );
  await announcePortalChange(ctx, user.id);
  return { license, validUntil: content.valid_until, username: user.username };
}

/** The account the licence is for: the signed-in one, else the request's key's holder. */
async function holderOf(
  ctx: PortalContext,
  session: FoundPortalSession | null,
  request: NonNullable<ReturnType<typeof parseActivationRequest>>,
  now: Date,
): Promise<string> {
  if (session) {
    const named = request.username?.trim().toLowerCase();
    if (named && named !== session.user.username.toLowerCase()) {
      throw badRequest(ACTIVATION_OTHER_ACCOUNT);
    }
    return session.user.id;
  }
  const licenseKey = request.license_key;
  if (!licenseKey) throw unauthenticated(ACTIVATION_NEEDS_SIGN_IN);
  const keyContext = { ...ctx, application: { id: ctx.portal.id } };
  await ctx.licenseThrottles.admit({
    applicationId: ctx.portal.id,
    ipAddress: ctx.ipAddress,
    licenseKey,
  });
  const found = await findKeyUser(keyContext, licenseKey, now, 'portal');
  if ('code' in found) {
    await refuseLicense(keyContext, {
      licenseKey,
      code: found.code,
      licenseId: found.licenseId,
      username: null,
      appUserId: null,
      action: 'portal',
      now,
    });
    throw badRequest(licenseRefusalMessages[found.code]);
  }
  return found.userId;
}

/**
 * Under HWID lock the machine takes a seat as a login's would (bind-device.ts: the user's row
 * locked, a free seat or an inactive one released), then is marked activated offline.
 */
async function bindMachine(
  ctx: PortalContext,
  input: {
    application: {
      id: number;
      maxDevices: number;
      releaseInactiveAfterDays: number | null;
      newDeviceMail: boolean;
    };
    userId: string;
    hwid: string;
    deviceName: string | null;
    now: Date;
  },
): Promise<void> {
  const mark = () =>
    ctx.db
      .update(appUserDevices)
      .set({
        activatedOfflineAt: input.now,
        ...(input.deviceName ? { name: input.deviceName } : {}),
      })
      .where(and(eq(appUserDevices.appUserId, input.userId), eq(appUserDevices.hwid, input.hwid)))
      .returning({ id: appUserDevices.id });
  if ((await mark()).length > 0) return;
  const bound = await bindDevice(ctx.db, {
    application: input.application,
    serverSecret: ctx.serverSecret,
    appUserId: input.userId,
    hwid: input.hwid,
    deviceName: input.deviceName,
    ipAddress: ctx.ipAddress,
    now: input.now,
  });
  if (bound.kind === 'gone') throw notFound(clientMessages.userNotFound);
  if (bound.kind === 'no-seat') throw new AppError('CONFLICT', ACTIVATION_NO_FREE_DEVICE);
  bound.records.forEach((record, index) =>
    ctx.activity.noteWritten(
      record,
      index === bound.records.length - 1 ? bound.queuedDeliveries : 0,
    ),
  );
  await mark();
}

/**
 * A floating plan's seat for an air-gapped computer: leased and borrowed until the licence ends,
 * as a session's borrow would be (its login is the request, named by its nonce). Answers the
 * lease's id.
 */
async function borrowSeatOffline(
  ctx: PortalContext,
  input: {
    applicationId: number;
    userId: string;
    terms: FloatingTerms;
    hwid: string;
    nonce: string;
    until: Date;
    now: Date;
  },
): Promise<string> {
  if (input.terms.maxBorrowDays === 0) throw new AppError('CONFLICT', ACTIVATION_NO_BORROWING);
  const tokenHash = `offline:${input.nonce}`;
  const seat = await takeSeat(ctx.db, {
    applicationId: input.applicationId,
    appUserId: input.userId,
    seats: input.terms.seats,
    leaseMinutes: input.terms.leaseMinutes,
    tokenHash,
    hwid: input.hwid,
    now: input.now,
  });
  if (seat.kind === 'gone') throw notFound(clientMessages.userNotFound);
  if (seat.kind === 'full') throw new AppError('CONFLICT', ACTIVATION_NO_FREE_SEAT);
  await borrowLease(ctx.db, {
    appUserId: input.userId,
    tokenHash,
    borrowedUntil: input.until,
    now: input.now,
  });
  return seat.leaseId;
}
