import type { AppUser } from '@latchkey/contracts';
import { truncateForPreview } from '@/components/applications/application-display.ts';

/** The one state an end user is in, as every users table and the Edit User dialog show it. */
export type AppUserStatus = 'Active' | 'Paused' | 'Expired' | 'Disabled';

/** The states an owner sets by hand; Expired follows from the expiry date instead. */
export const SETTABLE_APP_USER_STATUSES = ['Active', 'Paused', 'Disabled'] as const;
export type SettableAppUserStatus = (typeof SETTABLE_APP_USER_STATUSES)[number];

type StatusFlags = Pick<AppUser, 'isActive' | 'isPaused'>;

export function isExpired(expiresAt: string | null, now: Date = new Date()): boolean {
  return expiresAt !== null && new Date(expiresAt).getTime() < now.getTime();
}

/**
 * The state set by hand: Disabled whenever the account is off (paused or not, since it cannot
 * log in either way), else Paused or Active.
 */
export function getSettableAppUserStatus({
  isActive,
  isPaused,
}: StatusFlags): SettableAppUserStatus {
  if (!isActive) return 'Disabled';
  return isPaused ? 'Paused' : 'Active';
}

/**
 * Expired > Disabled > Paused > Active. A passed expiry outranks the state set by hand: the
 * owner sees first what a new state alone would not cure (only a later expiry does).
 */
export function getAppUserStatus(
  user: Pick<AppUser, 'expiresAt' | 'isPaused' | 'isActive'>,
  now: Date = new Date(),
): AppUserStatus {
  return isExpired(user.expiresAt, now) ? 'Expired' : getSettableAppUserStatus(user);
}

/**
 * The server's fields for a state set by hand. Disabled leaves isPaused as it is: a disabled
 * user cannot log in either way, and a save that only disables should not also unpause.
 */
export function toAppUserStatusFlags(status: SettableAppUserStatus): Partial<StatusFlags> {
  if (status === 'Disabled') return { isActive: false };
  return { isActive: true, isPaused: status === 'Paused' };
}

/** The devices a user has bound, against how many they may bind. */
export interface DeviceSeats {
  deviceCount: number;
  deviceLimit: number;
}

/** "2 of 3 devices". */
export function formatDeviceSeats({ deviceCount, deviceLimit }: DeviceSeats): string {
  return `${deviceCount} of ${deviceLimit} ${deviceLimit === 1 ? 'device' : 'devices'}`;
}

/**
 * Where a user may bind several devices, one HWID would hide the others, so the HWID columns
 * count them instead. Where one device is allowed, the columns show the single HWID as before.
 */
function hasSeveralSeats(seats: DeviceSeats | undefined): seats is DeviceSeats {
  return seats !== undefined && seats.deviceLimit > 1;
}

export type HwidLockLabel = 'Disabled' | 'Locked' | 'Not Set';

/** The dashboard's "HWID Lock" column. */
export function getHwidLockLabel(hwid: string | null, isHwidLockEnabled: boolean): HwidLockLabel {
  if (!isHwidLockEnabled) return 'Disabled';
  return hwid ? 'Locked' : 'Not Set';
}

/**
 * The dashboard's "HWID Lock" cell: the spec's label, or with several seats under HWID lock
 * the count of devices ("2 of 3 devices"); the label still picks the icon.
 */
export function describeHwidLockCell(
  hwid: string | null,
  isHwidLockEnabled: boolean,
  seats?: DeviceSeats,
): { label: HwidLockLabel; text: string } {
  const label = getHwidLockLabel(hwid, isHwidLockEnabled);
  return {
    label,
    text: isHwidLockEnabled && hasSeveralSeats(seats) ? formatDeviceSeats(seats) : label,
  };
}

export type HwidCell =
  | { kind: 'bound'; preview: string; hwid: string }
  | { kind: 'seats'; text: string }
  | { kind: 'empty'; text: 'Will be set on first login' | 'Not required' };

/**
 * The management page's "HWID" column; with several seats under HWID lock, the count of
 * devices instead.
 */
export function describeHwidCell(
  hwid: string | null,
  isHwidLockEnabled: boolean,
  seats?: DeviceSeats,
): HwidCell {
  if (isHwidLockEnabled && hasSeveralSeats(seats)) {
    return { kind: 'seats', text: formatDeviceSeats(seats) };
  }
  if (hwid) return { kind: 'bound', preview: truncateForPreview(hwid), hwid };
  return {
    kind: 'empty',
    text: isHwidLockEnabled ? 'Will be set on first login' : 'Not required',
  };
}

/** More than 5 failed attempts is red; any at all shows a warning icon. */
export const LOGIN_ATTEMPTS_WARNING_THRESHOLD = 5;

export function describeLoginAttempts(loginAttempts: number): {
  isExcessive: boolean;
  hasWarning: boolean;
} {
  return {
    isExcessive: loginAttempts > LOGIN_ATTEMPTS_WARNING_THRESHOLD,
    hasWarning: loginAttempts > 0,
  };
}

/**
 * The value of an <input type="datetime-local"> for an ISO instant: the first 16 characters of
 * the ISO form (minute precision), but in the viewer's local time, because the input shows and
 * edits wall-clock time. Slicing the UTC form would shift it by the offset.
 */
export function toDateTimeLocalValue(isoDateTime: string | null): string {
  if (!isoDateTime) return '';
  const instant = new Date(isoDateTime);
  if (Number.isNaN(instant.getTime())) return '';
  const localAsUtc = new Date(instant.getTime() - instant.getTimezoneOffset() * 60_000);
  return localAsUtc.toISOString().slice(0, 16);
}

/** The ISO instant for a datetime-local value (read as local time); null when empty. */
export function fromDateTimeLocalValue(value: string): string | null {
  if (!value.trim()) return null;
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? null : instant.toISOString();
}
