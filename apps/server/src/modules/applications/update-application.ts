import { and, eq, inArray } from 'drizzle-orm';
import {
  KEYAUTH_NAME_TAKEN,
  KEYAUTH_NEEDS_IDENTITY,
  APP_FILE_NOT_FOUND,
  APP_FILE_RELEASE_REQUIRES_SESSION,
  MAIL_FEATURE_NEEDS_MAIL,
  type UpdateApplicationInput,
} from '@latchkey/contracts';
import { appFiles, applications, type Application } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { AppError, badRequest, notFound, refusedField } from '../../lib/errors.ts';
import { isUniqueViolation } from '../../lib/database-errors.ts';
import {
  generateKeyauthOwnerId,
  generateKeyauthSecret,
  sealKeyauthSecret,
} from './keyauth-secret.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { syncTrialPlan } from '../trials/index.ts';
import { endSessions } from '../../outbox/end-sessions.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import {
  APPLICATION_NOT_FOUND,
  loadOwnedApplication,
  ownedApplicationIds,
  ownedApplicationWhere,
} from '../../ownership/load-owned-application.ts';

/**
 * Applies the given settings (absent fields stay as they are) and bumps updatedAt. Turning
 * the application off ends all its open client sessions in the same transaction, where the
 * audit entry is written too; caches hear of the change once it is committed. A mail feature
 * (verified addresses, new-device mail, expiry reminders) cannot be switched on while the server sends no mail:
 * its end users would wait for a link that never comes. One already on stays on.
 */
export async function updateApplication({
  ctx,
  input,
}: {
  ctx: OwnerContext & {
    applicationEvents: ApplicationEvents;
    isMailAvailable: boolean;
    serverSecret: string;
  };
  input: { applicationId: number; changes: UpdateApplicationInput };
}): Promise<Application> {
  const { changes } = input;
  const now = ctx.clock.now();
  const application = await ctx.db.transaction(async (tx) => {
    const keyauth = await keyauthChanges({ ...ctx, db: tx }, input);
    const turnsMailOn =
      changes.requireVerifiedEmail || changes.newDeviceMail || changes.expiryReminderDays;
    if (!ctx.isMailAvailable && turnsMailOn) {
      const current = await loadOwnedApplication({ ctx: { ...ctx, db: tx }, input });
      if (
        (changes.requireVerifiedEmail && !current.requireVerifiedEmail) ||
        (changes.newDeviceMail && !current.newDeviceMail) ||
        (changes.expiryReminderDays && current.expiryReminderDays === null)
      ) {
        throw new AppError('CONFLICT', MAIL_FEATURE_NEEDS_MAIL);
      }
    }
    // Only a complete file of this very application can be its release, locked so
    // it cannot be deleted before this commits. Another owner's application stays a plain
    // 404 of the application, whatever file is named.
    if (changes.currentReleaseFileId) {
      const [release] = await tx
        .select({ id: appFiles.id, requiresSession: appFiles.requiresSession })
        .from(appFiles)
        .where(
          and(
            eq(appFiles.id, changes.currentReleaseFileId),
            inArray(appFiles.applicationId, ownedApplicationIds(ctx, input.applicationId)),
            eq(appFiles.isComplete, true),
          ),
        )
        .for('share', { of: appFiles });
      if (!release) {
        await loadOwnedApplication({ ctx: { ...ctx, db: tx }, input });
        throw notFound(APP_FILE_NOT_FOUND);
      }
      // The release is offered to programs whose version login refuses: they can never
      // start a session, so a release that needs one would break the update channel.
      if (release.requiresSession) {
        throw refusedField(
          'BAD_REQUEST',
          'currentReleaseFileId',
          APP_FILE_RELEASE_REQUIRES_SESSION,
        );
      }
    }
    const [updated] = await tx
      .update(applications)
      .set({
        name: changes.name,
        description: changes.description,
        version: changes.version,
        isActive: changes.isActive,
        hwidLockEnabled: changes.hwidLockEnabled,
        maxSessionsPerUser: changes.maxSessionsPerUser,
        isLicenseRequired: changes.licenseRequired,
        maxDevices: changes.maxDevices,
        isSelfServiceReset: changes.selfServiceReset,
        resetCooldownHours: changes.resetCooldownHours,
        releaseInactiveAfterDays: changes.releaseInactiveAfterDays,
        maxOfflineDays: changes.maxOfflineDays,
        currentReleaseFileId: changes.currentReleaseFileId,
        isPortalEnabled: changes.portalEnabled,
        portalName: changes.portalName,
        mailSenderName: changes.mailSenderName,
        mailReplyTo: changes.mailReplyTo,
        requireVerifiedEmail: changes.requireVerifiedEmail,
        newDeviceMail: changes.newDeviceMail,
        expiryReminderDays: changes.expiryReminderDays,
        loginSuccessMessage: changes.loginSuccessMessage,
        loginFailedMessage: changes.loginFailedMessage,
        accountDisabledMessage: changes.accountDisabledMessage,
        accountExpiredMessage: changes.accountExpiredMessage,
        versionMismatchMessage: changes.versionMismatchMessage,
        hwidMismatchMessage: changes.hwidMismatchMessage,
        trialDays: changes.trialDays,
        trialEntitlements: changes.trialEntitlements,
        ...keyauth,
        updatedAt: now,
      })
      .where(ownedApplicationWhere(ctx, input.applicationId))
      .returning()
      .catch((error: unknown) => {
        if (isUniqueViolation(error, 'applications_keyauth_idx')) {
          throw refusedField('CONFLICT', 'keyauthOwnerId', KEYAUTH_NAME_TAKEN);
        }
        throw error;
      });
    if (!updated) return undefined;
    if (!updated.isActive) {
      await endSessions(tx, { applicationId: updated.id }, 'owner', now);
    }
    if (changes.trialDays !== undefined || changes.trialEntitlements !== undefined) {
      await syncTrialPlan(tx, updated, now);
    }
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'application_updated',
        application: { id: updated.id, name: updated.name },
        target: { kind: 'application', id: updated.id, label: updated.name },
        // The secret is a credential: the audit trail says it changed, not what it is.
        change: changes.keyauthSecret ? { ...changes, keyauthSecret: '(changed)' } : changes,
      },
    });
    return updated;
  });
  if (!application) throw notFound(APPLICATION_NOT_FOUND);
  await ctx.applicationEvents.emitChange(
    { kind: 'updated', applicationId: application.id, apiKey: application.apiKey },
    ctx.log,
  );
  return application;
}

/**
 * The KeyAuth settings' columns. Turning compatibility on fills in what is missing (a generated
 * owner id, the application's name, a generated secret), so one switch is enough for a vendor
 * who did not import from KeyAuth; clearing the owner id or name while it is on is refused.
 */
async function keyauthChanges(
  ctx: OwnerContext & { serverSecret: string },
  input: { applicationId: number; changes: UpdateApplicationInput },
) {
  const { changes } = input;
  const touchesKeyauth =
    changes.keyauthCompatibility !== undefined ||
    changes.keyauthOwnerId !== undefined ||
    changes.keyauthName !== undefined ||
    changes.keyauthSecret !== undefined;
  const columns = {
    keyauthCompatibility: changes.keyauthCompatibility,
    keyauthOwnerId: changes.keyauthOwnerId,
    keyauthName: changes.keyauthName,
    keyauthSessionHours: changes.keyauthSessionHours,
    keyauthSecretSealed: changes.keyauthSecret
      ? sealKeyauthSecret(changes.keyauthSecret, ctx.serverSecret)
      : undefined,
  };
  if (!touchesKeyauth) return columns;
  const current = await loadOwnedApplication({ ctx, input });
  const isOn = changes.keyauthCompatibility ?? current.keyauthCompatibility;
  if (!isOn) return columns;
  const ownerId =
    changes.keyauthOwnerId === undefined ? current.keyauthOwnerId : changes.keyauthOwnerId;
  const name = changes.keyauthName === undefined ? current.keyauthName : changes.keyauthName;
  const isTurningOn = !current.keyauthCompatibility;
  if ((ownerId === null || name === null) && !isTurningOn) {
    throw badRequest(KEYAUTH_NEEDS_IDENTITY);
  }
  return {
    ...columns,
    keyauthOwnerId: ownerId ?? generateKeyauthOwnerId(),
    keyauthName: name ?? changes.name ?? current.name,
    keyauthSecretSealed:
      columns.keyauthSecretSealed ??
      current.keyauthSecretSealed ??
      sealKeyauthSecret(generateKeyauthSecret(), ctx.serverSecret),
  };
}
