import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { licenseKeys, type LicenseKey } from '../../db/schema/index.ts';
import type { Database } from '../../db/client.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import {
  endSessionsIfUnlicensed,
  extendSubscription,
  takeBackGrant,
} from '../subscriptions/index.ts';
import type { LicenseContext } from './license-context.ts';
import { readLicenseRow } from './list-licenses.ts';
import type { LicenseRow } from './to-license-response.ts';
import { licenseNotFound, ownedLicenseWhere, type LicenseIds } from './owned-license.ts';

/** What banning needs beyond the owner's context: where the event and the change go. */
export interface LicenseBanContext extends LicenseContext {
  activity: Pick<ActivityRecorder, 'recordActivity'>;
  applicationEvents: ApplicationEvents;
}

/**
 * Bans a key (again: only the reason changes). An unused key can no longer be redeemed; a used key's grant is taken back (its
 * days come off the subscription it extended, or a lifetime grant ends) and nothing else of the
 * user changes. If that leaves the user with no active subscription in an application that
 * requires one, their sessions end in the same transaction, as pausing does, and its audit
 * entry is written there too. The ban is an activity and webhook event, written before the
 * answer.
 */
export async function banLicense({
  ctx,
  input,
}: {
  ctx: LicenseBanContext;
  input: LicenseIds & { reason: string };
}): Promise<LicenseRow> {
  const now = ctx.clock.now();
  const banned = await ctx.db.transaction(async (tx) => {
    const [row] = await banLicenseKeys(tx, {
      where: ownedLicenseWhere(ctx, input),
      reason: input.reason,
      now,
    });
    const audit = (key: { id: string; display: string }) =>
      recordOwnerWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'license_key_banned',
          application: { id: input.applicationId },
          target: { kind: 'license_key', id: key.id, label: key.display },
          change: { reason: input.reason },
        },
      });
    if (!row) {
      // Already banned (or not the owner's): a repeated ban only updates the reason, so a
      // shop or bot retrying the call is harmless. Nothing is taken back twice.
      const [again] = await tx
        .update(licenseKeys)
        .set({ bannedReason: input.reason })
        .where(and(ownedLicenseWhere(ctx, input), eq(licenseKeys.state, 'banned')))
        .returning({ id: licenseKeys.id, display: licenseKeys.display });
      if (!again) return null;
      await audit(again);
      return 'already-banned';
    }
    await audit(row);
    return row;
  });
  if (!banned) throw await licenseNotFound(ctx, input);
  const row = await readLicenseRow(ctx, input);
  if (banned === 'already-banned') return row;
  await ctx.activity.recordActivity({
    applicationId: input.applicationId,
    appUserId: row.usedByUsername === null ? null : row.usedByUserId,
    username: row.usedByUsername,
    event: 'license_banned',
    success: true,
    ipAddress: null,
    errorMessage: null,
    metadata: { code: 'LICENSE_BANNED', licenseId: banned.id, reason: input.reason },
    createdAt: now,
  });
  if (banned.usedByUserId) {
    await ctx.applicationEvents.emitChange(
      { kind: 'end-user-changed', applicationId: input.applicationId, userId: banned.usedByUserId },
      ctx.log,
    );
  }
  ctx.log.info({ licenseId: banned.id, applicationId: input.applicationId }, 'licence key banned');
  return row;
}

/**
 * Lifts a ban (of a key not banned: nothing changes): the key goes back to what it was (unused, or used by the same user), and a
 * used key's grant is given again, stacked from the later of now and the subscription's
 * expiry, as a redemption would have.
 */
export async function unbanLicense({
  ctx,
  input,
}: {
  ctx: LicenseBanContext;
  input: LicenseIds;
}): Promise<LicenseRow> {
  const now = ctx.clock.now();
  const unbanned = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(licenseKeys)
      .set({
        state: sql`case when ${licenseKeys.wasUsed} and ${licenseKeys.usedAt} is not null then 'used' else 'unused' end`,
        bannedReason: null,
        bannedAt: null,
        wasUsed: false,
      })
      .where(and(ownedLicenseWhere(ctx, input), eq(licenseKeys.state, 'banned')))
      .returning();
    if (!row) return null;
    if (row.state === 'used' && row.usedByUserId && row.subscriptionId) {
      await extendSubscription(tx, {
        applicationId: row.applicationId,
        appUserId: row.usedByUserId,
        planId: row.planId,
        durationDays: row.isGrantedLifetime ? null : row.grantedDays,
        // A ban takes back days, never the updates window: giving the days back is enough.
        updatesWindow: null,
        now,
      });
    }
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'license_key_unbanned',
        application: { id: input.applicationId },
        target: { kind: 'license_key', id: row.id, label: row.display },
        change: { state: row.state },
      },
    });
    return row;
  });
  if (!unbanned) {
    // Not banned: nothing to lift, and a retried unban must not grant twice.
    const [exists] = await ctx.db
      .select({ id: licenseKeys.id })
      .from(licenseKeys)
      .where(ownedLicenseWhere(ctx, input));
    if (!exists) throw await licenseNotFound(ctx, input);
    return readLicenseRow(ctx, input);
  }
  if (unbanned.usedByUserId) {
    await ctx.applicationEvents.emitChange(
      {
        kind: 'end-user-changed',
        applicationId: input.applicationId,
        userId: unbanned.usedByUserId,
      },
      ctx.log,
    );
  }
  ctx.log.info(
    { licenseId: unbanned.id, applicationId: input.applicationId },
    'licence key unbanned',
  );
  return readLicenseRow(ctx, input);
}

/**
 * Bans the keys `where` picks that are not banned yet, inside the caller's transaction: each
 * used key's grant is taken back (its days come off the subscription it extended, or a
 * lifetime grant ends unless another used key of that subscription also grants one), and a
 * user left unlicensed in an application that requires a licence has their sessions ended.
 * Answers the rows banned now; keys banned already are left as they are.
 */
export async function banLicenseKeys(
  tx: Database,
  input: { where: SQL | undefined; reason: string; now: Date },
): Promise<LicenseKey[]> {
  const { now } = input;
  const rows = await tx
    .update(licenseKeys)
    .set({
      state: 'banned',
      // In SET, the column is the row before the update.
      wasUsed: sql`${licenseKeys.state} = 'used'`,
      bannedReason: input.reason,
      bannedAt: now,
    })
    .where(and(input.where, ne(licenseKeys.state, 'banned')))
    .returning();
  for (const row of rows) {
    if (!row.wasUsed || !row.subscriptionId) continue;
    await takeBackGrant(tx, {
      subscriptionId: row.subscriptionId,
      grantedDays: row.grantedDays,
      isLifetime: row.isGrantedLifetime,
      keepLifetime: row.isGrantedLifetime && (await holdsOtherLifetimeGrant(tx, row)),
      now,
    });
    if (row.usedByUserId) {
      await endSessionsIfUnlicensed(
        tx,
        { applicationId: row.applicationId, appUserId: row.usedByUserId },
        now,
      );
    }
  }
  return rows;
}

async function holdsOtherLifetimeGrant(db: Database, key: LicenseKey): Promise<boolean> {
  const [other] = await db
    .select({ id: licenseKeys.id })
    .from(licenseKeys)
    .where(
      and(
        eq(licenseKeys.subscriptionId, key.subscriptionId!),
        eq(licenseKeys.state, 'used'),
        eq(licenseKeys.isGrantedLifetime, true),
        ne(licenseKeys.id, key.id),
      ),
    )
    .limit(1);
  return other !== undefined;
}
