import type { PortalAccount, PortalDevice } from '@latchkey/contracts';

/**
 * How the portal words dates, counts and states: pure functions, so they are unit tested
 * without a browser. `locale` and `timeZone` default to the reader's own.
 */
export interface DateOptions {
  locale?: string;
  timeZone?: string;
}

export function formatDateTime(iso: string, options: DateOptions = {}): string {
  return new Intl.DateTimeFormat(options.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: options.timeZone,
  }).format(new Date(iso));
}

/** The account's own expiry: null is none. */
export function accountExpiryText(expiresAt: string | null, options: DateOptions = {}): string {
  return expiresAt === null ? 'Never' : formatDateTime(expiresAt, options);
}

/** A subscription's expiry: null is lifetime; past ones say when they ended. */
export function subscriptionExpiryText(
  subscription: { expiresAt: string | null; isActive: boolean },
  options: DateOptions = {},
): string {
  if (subscription.expiresAt === null) return 'Lifetime';
  const when = formatDateTime(subscription.expiresAt, options);
  return subscription.isActive ? `Expires ${when}` : `Ended ${when}`;
}

/**
 * A subscription's updates window, or null when it has none (every release): the releases
 * published up to that date are the holder's; a window not started yet says when it will.
 */
export function subscriptionUpdatesText(
  subscription: { updatesUntil: string | null; updatesPendingDays: number | null },
  options: DateOptions = {},
): string | null {
  if (subscription.updatesUntil !== null) {
    return `Updates until ${formatDateTime(subscription.updatesUntil, options)}`;
  }
  const days = subscription.updatesPendingDays;
  if (days === null) return null;
  return `${days} ${days === 1 ? 'day' : 'days'} of updates from your next sign-in in the program`;
}

/**
 * A meter's use: "20 of 500 used", or with overage "520 used: 500 included, 20 over". The
 * console's Edit User dialog words it the same way in its own module: a module both imported
 * would become a script of its own that every portal page loads.
 */
export function meterUsageText(
  meter: { used: number; allowance: number; overage: number },
  locale?: string,
): string {
  const number = new Intl.NumberFormat(locale);
  if (meter.overage > 0) {
    return `${number.format(meter.used)} used: ${number.format(meter.allowance)} included, ${number.format(meter.overage)} over`;
  }
  return `${number.format(meter.used)} of ${number.format(meter.allowance)} used`;
}

/** When a meter starts again at 0: its next period, or never. */
export function meterResetText(resetsAt: string | null, options: DateOptions = {}): string {
  return resetsAt === null ? 'Does not reset' : `Resets ${formatDateTime(resetsAt, options)}`;
}

export function deviceCountText(used: number, limit: number): string {
  return `${used} of ${limit} ${limit === 1 ? 'device' : 'devices'}`;
}

export function deviceNameOf(device: Pick<PortalDevice, 'name'>): string {
  const name = device.name?.trim();
  return name ? name : 'Unnamed device';
}

/**
 * When the next release is allowed, or null when self-service is off (the page then says to
 * contact the vendor). A time already past is "now": the page may have been open a while.
 */
export function nextReleaseText(
  account: Pick<PortalAccount, 'selfServiceReset' | 'nextResetAt'>,
  now: Date,
  options: DateOptions = {},
): string | null {
  if (!account.selfServiceReset) return null;
  if (account.nextResetAt === null || Date.parse(account.nextResetAt) <= now.getTime()) {
    return 'You can release a device now.';
  }
  return `You can release another device after ${formatDateTime(account.nextResetAt, options)}.`;
}

/** "Please wait …" for a throttled request: seconds up to two minutes, then minutes. */
export function waitText(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  if (seconds < 120)
    return `Please wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'}, then try again.`;
  return `Please wait ${Math.ceil(seconds / 60)} minutes, then try again.`;
}

/** Ends a server message with a full stop, so a sentence can follow it. */
export function asSentence(message: string): string {
  const trimmed = message.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
