import type {
  ClientMeter,
  MeterOverage,
  MeterResetEvery,
  PlanMeter,
  UserMeter,
} from '@latchkey/contracts';
import { meterPeriodOf, RESET_ORDER, type MeterPeriod } from './meter-periods.ts';

/** One meter of a user as their active subscriptions define it together. */
export interface EffectiveMeter {
  name: string;
  allowance: number;
  resetEvery: MeterResetEvery;
  overage: MeterOverage;
}

/** A meter_usage row as the readers need it. */
export interface MeterUsageRow {
  name: string;
  periodStart: Date;
  used: number;
}

/**
 * The meters a user holds through their active subscriptions, by name. Meters of one name in
 * several plans are one meter (a base plan's 500 exports and an add-on's 500 more): the
 * allowances add up, the most frequent reset applies, and overage is counted when any of the
 * plans counts it. Sorted by name, so answers are stable.
 */
export function effectiveMeters(planMeters: readonly PlanMeter[][]): EffectiveMeter[] {
  const byName = new Map<string, EffectiveMeter>();
  for (const meters of planMeters) {
    for (const meter of meters) {
      const known = byName.get(meter.name);
      if (!known) {
        byName.set(meter.name, { ...meter });
        continue;
      }
      known.allowance += meter.allowance;
      if (RESET_ORDER.indexOf(meter.resetEvery) < RESET_ORDER.indexOf(known.resetEvery)) {
        known.resetEvery = meter.resetEvery;
      }
      if (meter.overage === 'count') known.overage = 'count';
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Units used in the current period: a row of an earlier period counts as a fresh start. */
export function usedIn(period: MeterPeriod, row: MeterUsageRow | undefined): number {
  return row && row.periodStart.getTime() >= period.start.getTime() ? row.used : 0;
}

/** Where a meter stands with `used` units in `period`, in the client API's words. */
export function clientMeterOf(
  meter: EffectiveMeter,
  used: number,
  period: MeterPeriod,
): ClientMeter {
  return {
    name: meter.name,
    allowance: meter.allowance,
    used,
    remaining: Math.max(0, meter.allowance - used),
    overage: Math.max(0, used - meter.allowance),
    resets_at: period.end?.toISOString() ?? null,
  };
}

/** The client API's meters of a user at `now`, from their definitions and usage rows. */
export function clientMetersOf(
  meters: readonly EffectiveMeter[],
  usage: readonly MeterUsageRow[],
  now: Date,
): ClientMeter[] {
  const rows = new Map(usage.map((row) => [row.name, row]));
  return meters.map((meter) => {
    const period = meterPeriodOf(meter.resetEvery, now);
    return clientMeterOf(meter, usedIn(period, rows.get(meter.name)), period);
  });
}

/** The same, as the owner API, the management API and the portal show it. */
export function userMetersOf(
  meters: readonly EffectiveMeter[],
  usage: readonly MeterUsageRow[],
  now: Date,
): UserMeter[] {
  const rows = new Map(usage.map((row) => [row.name, row]));
  return meters.map((meter) => {
    const period = meterPeriodOf(meter.resetEvery, now);
    const state = clientMeterOf(meter, usedIn(period, rows.get(meter.name)), period);
    return {
      name: meter.name,
      allowance: meter.allowance,
      used: state.used,
      remaining: state.remaining,
      overage: state.overage,
      resetEvery: meter.resetEvery,
      overageMode: meter.overage,
      periodStartedAt: period.end === null ? null : period.start.toISOString(),
      resetsAt: state.resets_at,
    };
  });
}

/** The earliest moment one of these meters starts a new period (Infinity: none resets). */
export function nextMeterResetMs(meters: readonly EffectiveMeter[], now: Date): number {
  let next = Infinity;
  for (const meter of meters) {
    const end = meterPeriodOf(meter.resetEvery, now).end;
    if (end && end.getTime() < next) next = end.getTime();
  }
  return next;
}
