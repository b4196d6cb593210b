import type { Application, UpdateApplicationRequest } from '@latchkey/contracts';
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
