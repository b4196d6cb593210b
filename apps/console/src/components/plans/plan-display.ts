import {
  createPlanRequestSchema,
  planLimits,
  type CreatePlanRequest,
  type MeterOverage,
  type MeterResetEvery,
  type Plan,
  type PlanMeter,
  type UpdatesFrom,
} from '@latchkey/contracts';
import { parseTypedNumber } from '@/lib/typed-number.ts';
import { contractProblems } from '@/lib/first-problem.ts';

/** The Plans tab's duration: "Lifetime", or how many days a key of the plan lasts. */
export function formatPlanDuration(durationDays: number | null): string {
  if (durationDays === null) return 'Lifetime';
  return durationDays === 1 ? '1 day' : `${durationDays} days`;
}

/** The plan form as typed: the duration and the entitlements are text until sent. */
export interface PlanFields {
  name: string;
  /** Whole days; empty is lifetime. */
  durationDays: string;
  /** Codes separated by commas, spaces or new lines. */
  entitlements: string;
  description: string;
  /** Devices a holder may bind; empty keeps the application's limit. */
  maxDevices: string;
  /** Whole days of updates; empty is every release. */
  updatesForDays: string;
  updatesFrom: UpdatesFrom;
  meters: MeterFields[];
  /** Floating seats: seats, lease minutes and borrow days are text until sent. */
  floating: boolean;
  seats: string;
  leaseMinutes: string;
  maxBorrowDays: string;
}

/** One usage meter as the plan form holds it: the allowance is text until sent. */
export interface MeterFields {
  /** Tells rows apart while their names are being typed (React's key); never sent. */
  rowId: number;
  name: string;
  allowance: string;
  resetEvery: MeterResetEvery;
  overage: MeterOverage;
}

export const EMPTY_PLAN_FIELDS: PlanFields = {
  name: '',
  durationDays: '',
  entitlements: '',
  description: '',
  maxDevices: '',
  updatesForDays: '',
  updatesFrom: 'redemption',
  meters: [],
  floating: false,
  seats: '',
  leaseMinutes: String(planLimits.defaultLeaseMinutes),
  maxBorrowDays: '0',
};

let nextMeterRowId = 1;

/** A new meter row: monthly, refusing past its allowance (the contract's defaults). */
export function newMeterFields(meter?: PlanMeter): MeterFields {
  return {
    rowId: nextMeterRowId++,
    name: meter?.name ?? '',
    allowance: meter ? String(meter.allowance) : '',
    resetEvery: meter?.resetEvery ?? 'month',
    overage: meter?.overage ?? 'refuse',
  };
}

/** How the plan form names a meter's period. */
export const METER_RESET_LABELS: Record<MeterResetEvery, string> = {
  none: 'Never',
  day: 'Daily',
  week: 'Weekly',
  month: 'Monthly',
  year: 'Yearly',
};

/** How the plan form names what happens past the allowance. */
export const METER_OVERAGE_LABELS: Record<MeterOverage, string> = {
  refuse: 'Refuse',
  count: 'Count as overage',
};

const METER_PERIOD_WORDS: Record<MeterResetEvery, string> = {
  none: 'in all',
  day: 'a day',
  week: 'a week',
  month: 'a month',
  year: 'a year',
};

/** The plans table's meters: "exports: 500 a month", "credits: 10,000 in all, overage counted". */
export function formatPlanMeter(meter: PlanMeter, locale?: string): string {
  const allowance = new Intl.NumberFormat(locale).format(meter.allowance);
  const overage = meter.overage === 'count' ? ', overage counted' : '';
  return `${meter.name}: ${allowance} ${METER_PERIOD_WORDS[meter.resetEvery]}${overage}`;
}

/** How the plan form names when an updates window starts. */
export const UPDATES_FROM_LABELS: Record<UpdatesFrom, string> = {
  redemption: 'When the plan is granted',
  activation: 'At the first sign-in after that',
};

/** The Plans tab's updates: "Every release", or the window each grant includes. */
export function formatPlanUpdates(plan: Pick<Plan, 'updatesForDays' | 'updatesFrom'>): string {
  if (plan.updatesForDays === null) return 'Every release';
  const days = plan.updatesForDays === 1 ? '1 day' : `${plan.updatesForDays} days`;
  return plan.updatesFrom === 'activation'
    ? `${days} of updates from first sign-in`
    : `${days} of updates`;
}

/** The plans table's floating line: "10 floating seats, 7 days offline", or null. */
export function formatPlanSeats(
  plan: Pick<Plan, 'floating' | 'seats' | 'maxBorrowDays'>,
): string | null {
  if (!plan.floating || plan.seats === null) return null;
  const seats = plan.seats === 1 ? '1 floating seat' : `${plan.seats} floating seats`;
  if (plan.maxBorrowDays === 0) return seats;
  const days = plan.maxBorrowDays === 1 ? '1 day' : `${plan.maxBorrowDays} days`;
  return `${seats}, borrowed up to ${days}`;
}

/** A plan's device limit in the plans table ("3 devices"); null keeps the application's. */
export function formatPlanDeviceLimit(maxDevices: number | null): string | null {
  if (maxDevices === null) return null;
  return maxDevices === 1 ? '1 device' : `${maxDevices} devices`;
}

export const PLAN_UPDATES_INVALID = `Updates must be a whole number of days from 1 to ${planLimits.durationDays}, or empty for every release`;

export const PLAN_DURATION_INVALID = `Duration must be a whole number of days from 1 to ${planLimits.durationDays}, or empty for lifetime`;

export function toPlanFields(plan: Plan): PlanFields {
  return {
    name: plan.name,
    durationDays: plan.durationDays === null ? '' : String(plan.durationDays),
    entitlements: plan.entitlements.join(', '),
    description: plan.description ?? '',
    maxDevices: plan.maxDevices === null ? '' : String(plan.maxDevices),
    updatesForDays: plan.updatesForDays === null ? '' : String(plan.updatesForDays),
    updatesFrom: plan.updatesFrom,
    meters: plan.meters.map((meter) => newMeterFields(meter)),
    floating: plan.floating,
    seats: plan.seats === null ? '' : String(plan.seats),
    leaseMinutes: String(plan.leaseMinutes),
    maxBorrowDays: String(plan.maxBorrowDays),
  };
}

/** The codes typed, in order, without empty pieces; the server sorts them and drops repeats. */
export function parseEntitlements(text: string): string[] {
  return text.split(/[\s,]+/).filter((code) => code !== '');
}

/**
 * Whole days from 1 to the limit, null for an empty field (lifetime, or every release), NaN
 * for anything else.
 */
function parseDurationDays(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return Number.NaN;
  const days = Number(trimmed);
  return days >= 1 && days <= planLimits.durationDays ? days : Number.NaN;
}

/** The body of a create, and of an edit (which sends every field, so what is shown is saved). */
export function toPlanRequest(fields: PlanFields): CreatePlanRequest {
  return {
    name: fields.name.trim(),
    durationDays: parseDurationDays(fields.durationDays),
    entitlements: parseEntitlements(fields.entitlements),
    description: fields.description.trim() || null,
    // Empty keeps the application's limit.
    maxDevices: fields.maxDevices.trim() === '' ? null : parseTypedNumber(fields.maxDevices),
    updatesForDays: parseDurationDays(fields.updatesForDays),
    updatesFrom: fields.updatesFrom,
    meters: fields.meters.map((meter) => ({
      name: meter.name.trim(),
      allowance: parseTypedNumber(meter.allowance),
      resetEvery: meter.resetEvery,
      overage: meter.overage,
    })),
    floating: fields.floating,
    // Seats mean nothing to a plan that is not floating: not sent, so they are not judged.
    seats: fields.floating ? parseTypedNumber(fields.seats) : null,
    leaseMinutes: parseTypedNumber(fields.leaseMinutes),
    maxBorrowDays: parseTypedNumber(fields.maxBorrowDays),
  };
}

/**
 * Each field's problem, empty when the plan may be sent. The duration is checked here, with
 * words for the form; everything else by the contract the server checks it with, so the two
 * cannot disagree (a blank name, a code with a hyphen, too many codes, a device limit of 0).
 */
export function findPlanProblems(fields: PlanFields): Partial<Record<string, string>> {
  const request = toPlanRequest(fields);
  const problems = contractProblems(createPlanRequestSchema, request);
  if (Number.isNaN(request.durationDays)) problems.durationDays = PLAN_DURATION_INVALID;
  if (Number.isNaN(request.updatesForDays)) problems.updatesForDays = PLAN_UPDATES_INVALID;
  return problems;
}

/** The first problem of the plan in the form's order, or null when it may be sent. */
export function validatePlan(fields: PlanFields): string | null {
  const problems = findPlanProblems(fields);
  const first = (Object.keys(fields) as (keyof PlanFields)[]).find((name) => problems[name]);
  return first ? problems[first]! : null;
}
