import {
  applicationMessageFields,
  updateApplicationRequestSchema,
  type Application,
  type ApplicationMessageField,
  type UpdateApplicationRequest,
} from '@latchkey/contracts';
import { contractProblems } from '@/lib/first-problem.ts';
import { parseTypedNumber } from '@/lib/typed-number.ts';
import { toDeviceSettingsFields, toDeviceSettingsRequest } from './device-settings.ts';
import {
  toOfflineLicenseSettingsFields,
  toOfflineLicenseSettingsRequest,
} from './offline-license-settings.ts';
import { toPortalSettingsFields, toPortalSettingsRequest } from './portal-settings.ts';
import { toTrialSettingsFields, toTrialSettingsRequest } from './trial-settings.ts';

/**
 * Every setting of an application the settings dialog edits, as typed: numbers stay text until
 * sent, so the contract can say what is wrong with "30d" rather than the browser emptying it.
 */
export type ApplicationSettingsFields = ReturnType<typeof toApplicationSettingsFields>;

export function toApplicationSettingsFields(application: Application) {
  const messages = Object.fromEntries(
    applicationMessageFields.map((field) => [field, application[field]]),
  ) as Record<ApplicationMessageField, string>;
  return {
    name: application.name,
    version: application.version,
    description: application.description ?? '',
    isActive: application.isActive,
    hwidLockEnabled: application.hwidLockEnabled,
    licenseRequired: application.licenseRequired,
    maxSessions: application.maxSessionsPerUser?.toString() ?? '',
    devices: toDeviceSettingsFields(application),
    offline: toOfflineLicenseSettingsFields(application),
    portal: toPortalSettingsFields(application),
    trial: toTrialSettingsFields(application),
    ...messages,
  };
}

/** The whole update body, every setting every time. */
export function toApplicationSettingsRequest({
  maxSessions,
  devices,
  offline,
  portal,
  trial,
  ...settings
}: ApplicationSettingsFields): UpdateApplicationRequest {
  return {
    ...settings,
    ...toDeviceSettingsRequest(devices),
    ...toOfflineLicenseSettingsRequest(offline),
    ...toPortalSettingsRequest(portal),
    ...toTrialSettingsRequest(trial),
    // Empty is "no limit"; anything else goes as typed, for the contract to judge.
    maxSessionsPerUser: maxSessions.trim() === '' ? null : parseTypedNumber(maxSessions),
  };
}

/**
 * Where a problem with a request field is shown. Each setting's problem is keyed by its name in
 * the request, which the settings groups' fields share; only the session limit is typed into a
 * field of another name.
 */
export function settingsProblemKeyOf(path: string): string {
  const [field = ''] = path.split('.');
  return field === 'maxSessionsPerUser' ? 'maxSessions' : field;
}

/**
 * Every problem of the settings, by where it is shown, in the words of the contract the server
 * checks them with (so the two cannot disagree): empty when they may be sent.
 */
export function findApplicationSettingsProblems(
  fields: ApplicationSettingsFields,
): Partial<Record<string, string>> {
  return contractProblems(
    updateApplicationRequestSchema,
    toApplicationSettingsRequest(fields),
    // A problem of the whole body (an empty name) is shown at the name.
    (path) => settingsProblemKeyOf(path) || 'name',
  );
}
