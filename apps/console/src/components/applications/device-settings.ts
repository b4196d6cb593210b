import {
  updateApplicationRequestSchema,
  type Application,
  type UpdateApplicationRequest,
} from '@latchkey/contracts';
import { parseTypedNumber } from '@/lib/typed-number.ts';

/** The Devices group of the Settings dialog as typed: numbers are text until sent. */
export interface DeviceSettingsFields {
  maxDevices: string;
  selfServiceReset: boolean;
  resetCooldownHours: string;
  /** Empty is never. */
  releaseInactiveAfterDays: string;
}

export function toDeviceSettingsFields(application: Application): DeviceSettingsFields {
  return {
    maxDevices: String(application.maxDevices),
    selfServiceReset: application.selfServiceReset,
    resetCooldownHours: String(application.resetCooldownHours),
    releaseInactiveAfterDays: application.releaseInactiveAfterDays?.toString() ?? '',
  };
}

export type DeviceSettingsRequest = Pick<
  UpdateApplicationRequest,
  'maxDevices' | 'selfServiceReset' | 'resetCooldownHours' | 'releaseInactiveAfterDays'
>;

export function toDeviceSettingsRequest(fields: DeviceSettingsFields): DeviceSettingsRequest {
  return {
    maxDevices: parseTypedNumber(fields.maxDevices),
    selfServiceReset: fields.selfServiceReset,
    resetCooldownHours: parseTypedNumber(fields.resetCooldownHours),
    releaseInactiveAfterDays:
      fields.releaseInactiveAfterDays.trim() === ''
        ? null
        : parseTypedNumber(fields.releaseInactiveAfterDays),
  };
}

/** What stops the device settings from being sent, and which field it is about. */
export interface DeviceSettingsProblem {
  field: keyof DeviceSettingsFields;
  message: string;
}

const deviceSettingNames: Record<keyof DeviceSettingsFields, true> = {
  maxDevices: true,
  selfServiceReset: true,
  resetCooldownHours: true,
  releaseInactiveAfterDays: true,
};

function isDeviceSettingName(name: unknown): name is keyof DeviceSettingsFields {
  return typeof name === 'string' && Object.hasOwn(deviceSettingNames, name);
}

/**
 * The first problem of the device settings, or null when they may be sent. Checked by the
 * contract the server checks them with, in its words, so the two cannot disagree. (The basic
 * settings are not checked in the console: the server's message explains a refusal.)
 */
export function findDeviceSettingsProblem(
  fields: DeviceSettingsFields,
): DeviceSettingsProblem | null {
  const result = updateApplicationRequestSchema.safeParse(toDeviceSettingsRequest(fields));
  const issue = result.success ? undefined : result.error.issues[0];
  if (!issue) return null;
  const [name] = issue.path;
  return { field: isDeviceSettingName(name) ? name : 'maxDevices', message: issue.message };
}
