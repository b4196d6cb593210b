import type { Device } from '@latchkey/contracts';
import { truncateForPreview } from '@/components/applications/application-display.ts';

export const UNNAMED_DEVICE = 'Unnamed device';

/** What the client sent as `device_name`, else "Unnamed device". */
export function getDeviceName(device: Pick<Device, 'name'>): string {
  return device.name ?? UNNAMED_DEVICE;
}

/**
 * A device's name for the buttons that act on it. Unnamed devices are told apart by the start
 * of their HWID, as the list shows it.
 */
export function getDeviceLabel(device: Pick<Device, 'name' | 'hwid'>): string {
  return device.name ?? `${UNNAMED_DEVICE} ${truncateForPreview(device.hwid)}`;
}

/** Why a user has no device yet: the next login binds one, but only under HWID lock. */
export function describeNoDevices(isHwidLockEnabled: boolean): string {
  return isHwidLockEnabled
    ? 'The next login under HWID lock binds the device it comes from.'
    : 'HWID lock is off for this application: devices are bound only when HWID lock is on.';
}
