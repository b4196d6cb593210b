import type { Application as ApplicationResponse } from '@latchkey/contracts';
import type { Application } from '../../db/schema/index.ts';
import { unsealKeyauthSecret } from './keyauth-secret.ts';

/**
 * The owner-API view of an application: everything except the encrypted private key. The
 * KeyAuth secret is answered in the clear, as the API key is: the owner pastes both into
 * their program.
 */
export function toApplicationResponse(
  application: Application,
  serverSecret: string,
): ApplicationResponse {
  return {
    id: application.id,
    name: application.name,
    description: application.description,
    apiKey: application.apiKey,
    isActive: application.isActive,
    version: application.version,
    hwidLockEnabled: application.hwidLockEnabled,
    maxSessionsPerUser: application.maxSessionsPerUser,
    licenseRequired: application.isLicenseRequired,
    maxDevices: application.maxDevices,
    selfServiceReset: application.isSelfServiceReset,
    resetCooldownHours: application.resetCooldownHours,
    releaseInactiveAfterDays: application.releaseInactiveAfterDays,
    maxOfflineDays: application.maxOfflineDays,
    currentReleaseFileId: application.currentReleaseFileId,
    portalEnabled: application.isPortalEnabled,
    portalName: application.portalName,
    mailSenderName: application.mailSenderName,
    mailReplyTo: application.mailReplyTo,
    requireVerifiedEmail: application.requireVerifiedEmail,
    newDeviceMail: application.newDeviceMail,
    expiryReminderDays: application.expiryReminderDays,
    trialDays: application.trialDays,
    trialEntitlements: application.trialEntitlements,
    portalPublicId: application.portalPublicId,
    loginSuccessMessage: application.loginSuccessMessage,
    loginFailedMessage: application.loginFailedMessage,
    accountDisabledMessage: application.accountDisabledMessage,
    accountExpiredMessage: application.accountExpiredMessage,
    versionMismatchMessage: application.versionMismatchMessage,
    hwidMismatchMessage: application.hwidMismatchMessage,
    keyauthCompatibility: application.keyauthCompatibility,
    keyauthOwnerId: application.keyauthOwnerId,
    keyauthName: application.keyauthName,
    keyauthSecret:
      application.keyauthSecretSealed === null
        ? null
        : unsealKeyauthSecret(application.keyauthSecretSealed, serverSecret),
    keyauthSessionHours: application.keyauthSessionHours,
    signingPublicKey: application.signingPublicKey,
    createdAt: application.createdAt.toISOString(),
    updatedAt: application.updatedAt.toISOString(),
  };
}
