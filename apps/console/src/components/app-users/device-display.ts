import type { Device } from '@latchkey/contracts';

export const UNNAMED_DEVICE = 'Unnamed device';

/** What the client sent as `device_name`, else "Unnamed device". */
export function getDeviceName(device: Pick<Device, 'name'>): string {
  return device.name ?? UNNAMED_DEVICE;
}

/** How many of a HWID's last characters are shown to tell devices apart. */
export const HWID_TAIL_LENGTH = 6;

/**
 * The end of a HWID, e.g. "…BOB-01": machine ids often share a prefix (a vendor's or a
 * scheme's), so their ends are where two of them differ. A short HWID is shown whole.
 */
export function getHwidTail(hwid: string): string {
  const characters = Array.from(hwid);
  if (characters.length <= HWID_TAIL_LENGTH) return hwid;
  return `…${characters.slice(-HWID_TAIL_LENGTH).join('')}`;
}

/**
 * A device as the list and the buttons that act on it name it: its name and the end of its
 * HWID, e.g. "Office PC · …BOB-01", so two devices of one name (or two unnamed) differ.
 */
export function getDeviceLabel(device: Pick<Device, 'name' | 'hwid'>): string {
  return `${getDeviceName(device)} · ${getHwidTail(device.hwid)}`;
}

/** Why a user has no device yet: the next login binds one, but only under HWID lock. */
export function describeNoDevices(isHwidLockEnabled: boolean): string {
  return isHwidLockEnabled
    ? 'The next login under HWID lock binds the device it comes from.'
    : 'HWID lock is off for this application: devices are bound only when HWID lock is on.';
}
