import type { ActivityEvent, ClientApiCode, ClientAuthResponse } from '@latchkey/contracts';
import { hashToken } from '../../lib/tokens.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { bindDevice, deviceLimitOf } from '../devices/index.ts';
import { releaseSeat, seatTermsOf } from '../seats/index.ts';
import type { SessionLookup } from './session-lookup.ts';
import type { IdentifiedUser } from './identified-user.ts';
import {
  hasPendingUpdatesWindow,
  licensedUntilMs,
  licensingAnswer,
  licensingOf,
  startPendingUpdatesWindows,
} from '../subscriptions/index.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { judgeClientVersion } from './entitled-release.ts';
import type { ClientContext } from './client-context.ts';
import { clientMessages, standingRefusal, type ClientOutcome } from './client-outcomes.ts';
import type { LoginStatements } from './login-statements.ts';
import { issueSessionToken } from './session-token.ts';

/** A refused login's event and answer (acknowledged means written: it waits for the commit). */
export type RefuseLogin = (
  code: ClientApiCode,
  event: ActivityEvent,
  message: string,
) => Promise<ClientOutcome>;

/** What a login needs beyond the client context: its statements, and the session caches. */
export type LoginContext = ClientContext & {
  statements: LoginStatements;
  sessions: Pick<SessionLookup, 'announceEnded'>;
  /** Seals what mail a login queues (the new-device mail's). */
  serverSecret: string;
  /** Announces a user whose cached standing a login changed (an updates window it started). */
  applicationEvents: ApplicationEvents;
};

/**
 * What every login does once it knows the user (login by password, login by licence key):
 * standing (paused or inactive, expiry, a subscription where one is required), version, HWID,
 * then one statement that stamps the login, touches the device under HWID lock, and writes the
 * `user_login` row with its deliveries, and the answer with a session token. Under the lock a
 * device not yet bound takes a free seat first (bind-device.ts, the slow path of a first login
 * from a machine); none free is HWID_MISMATCH, as the seed's lock to one machine answered.
 */
export async function completeLogin(
  ctx: LoginContext,
  input: {
    user: IdentifiedUser;
    version: string | null;
    hwid: string | null;
    /** `device_name`: kept with the device (a new binding, or renamed). */
    deviceName: string | null;
    /** The request's own metadata for the activity rows (hwid, version, action…). */
    metadata: Record<string, unknown>;
    now: Date;
    refuse: RefuseLogin;
    /** What a lost race answers when the HWID lock is off. */
    onNotWritten: () => Promise<ClientOutcome>;
  },
): Promise<ClientAuthResponse> {
  const { application, activity } = ctx;
  const { user, hwid, now, refuse } = input;
  const standing = standingRefusal(
    application,
    { ...user, licensedUntilMs: licensedUntilMs(user.held) },
    now,
  );
  if (standing) {
    // A lapsed subscription is logged as an expiry; the metadata's code tells them apart.
    return refuse(
      standing.code,
      standing.code === 'ACCOUNT_DISABLED' ? 'account_disabled' : 'account_expired',
      standing.message,
    );
  }
  const judgement = await judgeClientVersion(
    ctx.db,
    application,
    input.version,
    licensingOf(user.held, now).updatesUntil,
  );
  if (judgement.kind !== 'accepted') {
    // Logged as a version mismatch; the metadata's code tells an ended updates window apart.
    const refused =
      judgement.kind === 'updates-expired'
        ? await refuse('UPDATES_EXPIRED', 'version_mismatch', clientMessages.updatesExpired)
        : await refuse('VERSION_MISMATCH', 'version_mismatch', application.versionMismatchMessage);
    // Where the right version is, when there is a release to offer.
    return judgement.update ? { ...refused, update: judgement.update } : refused;
  }
  const refuseHwid = () =>
    refuse('HWID_MISMATCH', 'hwid_mismatch', application.hwidMismatchMessage);
  if (application.hwidLockEnabled && !hwid) return refuseHwid();

  const sessionToken = issueSessionToken(now);
  const successRecord = {
    applicationId: application.id,
    appUserId: user.id,
    username: user.username,
    event: 'user_login',
    success: true,
    ipAddress: ctx.ipAddress,
    errorMessage: null,
    metadata: { ...input.metadata, code: 'OK' } as Record<string, unknown>,
    createdAt: now,
  } satisfies ActivityRecord;
  const device =
    application.hwidLockEnabled && hwid
      ? {
          hwid,
          name: input.deviceName,
          limit: deviceLimitOf(application.maxDevices, user.held, now),
        }
      : null;
  // A floating plan's holder leases a seat for this login in the statement that stamps it.
  const seatTerms = seatTermsOf(user.held, now);
  const stamp = (takesSeat: boolean) =>
    ctx.statements.stampAndRecordLogin({
      userId: user.id,
      now,
      ipAddress: ctx.ipAddress,
      loginHwid: hwid,
      tokenHash: hashToken(sessionToken),
      applicationId: application.id,
      metadata: successRecord.metadata,
      device,
      seat:
        takesSeat && seatTerms
          ? { seats: seatTerms.seats, leaseMinutes: seatTerms.leaseMinutes }
          : null,
    });
  const firstWrite = await stamp(true);
  const { seat } = firstWrite;
  if (seat?.kind === 'gone') return input.onNotWritten();
  if (seat?.kind === 'full') {
    const refused = await refuse(
      'NO_SEAT_AVAILABLE',
      'seat_denied',
      clientMessages.noSeatAvailable,
    );
    return { ...refused, next_free_at: seat.nextFreeAt.toISOString() };
  }
  // Refused after all: the seat is given back at once.
  const giveBack = async <Answer>(answer: Answer | Promise<Answer>): Promise<Answer> => {
    if (seat?.kind === 'taken') await releaseSeat(ctx.db, seat.leaseId);
    return answer;
  };
  let written = firstWrite.written;
  if (!written && device) {
    // Not bound (or beyond the seats): a first login from this machine takes a free seat.
    const bound = await bindDevice(ctx.db, {
      application,
      serverSecret: ctx.serverSecret,
      appUserId: user.id,
      hwid: device.hwid,
      deviceName: device.name,
      ipAddress: ctx.ipAddress,
      now,
    });
    if (bound.kind === 'gone') return giveBack(input.onNotWritten());
    if (bound.kind === 'no-seat') return giveBack(refuseHwid());
    bound.records.forEach((record, index) =>
      activity.noteWritten(record, index === bound.records.length - 1 ? bound.queuedDeliveries : 0),
    );
    if (bound.endedSessions.length > 0) ctx.sessions.announceEnded(bound.endedSessions, ctx.log);
    if (bound.records.length > 0) successRecord.metadata.hwidBound = true;
    // The seat, if any, was leased by the first statement.
    written = (await stamp(false)).written;
  }
  if (!written) return giveBack(device ? refuseHwid() : input.onNotWritten());
  activity.noteWritten(successRecord, written.queuedDeliveries);
  activity.resetLoginAttempts(user.id);
  let { held } = user;
  if (hasPendingUpdatesWindow(held)) {
    // This login is the activation an updates window was waiting for: it starts now, once.
    held = await startPendingUpdatesWindows(ctx.db, user.id, held, now);
    await ctx.applicationEvents.emitChange(
      { kind: 'end-user-changed', applicationId: application.id, userId: user.id },
      ctx.log,
    );
  }
  return {
    success: true,
    message: application.loginSuccessMessage,
    code: 'OK',
    user_id: user.id,
    username: user.username,
    email: user.email,
    expires_at: user.expiresAt?.toISOString() ?? null,
    hwid_locked: application.hwidLockEnabled && written.hwid !== null,
    session_token: sessionToken,
    ...licensingAnswer(held, now),
  };
}
