import type { UserMeter } from './meters.ts';

/**
 * A meter's use in words, as the console and the portal show it: "20 of 500 used", or with
 * overage "520 used: 500 included, 20 over". Numbers in the reader's locale unless one is given.
 *
 * Kept free of zod: the portal, whose whole script is a few kilobytes, imports it.
 */
export function meterUsageText(
  meter: Pick<UserMeter, 'used' | 'allowance' | 'overage'>,
  locale?: string,
): string {
  const number = new Intl.NumberFormat(locale);
  if (meter.overage > 0) {
    return `${number.format(meter.used)} used: ${number.format(meter.allowance)} included, ${number.format(meter.overage)} over`;
  }
  return `${number.format(meter.used)} of ${number.format(meter.allowance)} used`;
}
