import {
  deviceLimits,
  ENTITLEMENT_CODE_INVALID,
  METER_ALLOWANCE_RANGE,
  METER_NAME_INVALID,
  METER_NAMES_REPEATED,
  PLAN_NAME_REQUIRED,
} from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import { createPlan } from '@/test/stub-owner-api.ts';
import {
  EMPTY_PLAN_FIELDS,
  findPlanProblems,
  formatPlanDeviceLimit,
  formatPlanDuration,
  formatPlanMeter,
  formatPlanUpdates,
  newMeterFields,
  type MeterFields,
  PLAN_DURATION_INVALID,
  PLAN_UPDATES_INVALID,
  toPlanFields,
  toPlanRequest,
  validatePlan,
} from './plan-display.ts';

const filled = { ...EMPTY_PLAN_FIELDS, name: 'Pro' };

describe('formatPlanDuration', () => {
  it('says Lifetime for no duration, else the days', () => {
    expect(formatPlanDuration(null)).toBe('Lifetime');
    expect(formatPlanDuration(1)).toBe('1 day');
    expect(formatPlanDuration(30)).toBe('30 days');
  });
});

describe('formatPlanUpdates', () => {
  it('says Every release without a window, else its days and when they start', () => {
    expect(formatPlanUpdates({ updatesForDays: null, updatesFrom: 'activation' })).toBe(
      'Every release',
    );
    expect(formatPlanUpdates({ updatesForDays: 1, updatesFrom: 'redemption' })).toBe(
      '1 day of updates',
    );
    expect(formatPlanUpdates({ updatesForDays: 365, updatesFrom: 'activation' })).toBe(
      '365 days of updates from first sign-in',
    );
  });
});

describe('validatePlan: the updates window', () => {
  it('takes whole days from 1 to a hundred years, or empty for every release', () => {
    expect(validatePlan({ ...filled, updatesForDays: '' })).toBeNull();
    expect(validatePlan({ ...filled, updatesForDays: ' 365 ' })).toBeNull();
    for (const updatesForDays of ['0', '36501', '1.5', 'a year']) {
      expect(validatePlan({ ...filled, updatesForDays }), updatesForDays).toBe(
        PLAN_UPDATES_INVALID,
      );
    }
  });
});

describe('formatPlanDeviceLimit', () => {
  it("says nothing for a plan that keeps the application's limit, else the devices", () => {
    expect(formatPlanDeviceLimit(null)).toBeNull();
    expect(formatPlanDeviceLimit(1)).toBe('1 device');
    expect(formatPlanDeviceLimit(3)).toBe('3 devices');
  });
});

describe('validatePlan', () => {
  it('requires a name that is not only spaces', () => {
    expect(validatePlan(EMPTY_PLAN_FIELDS)).toBe(PLAN_NAME_REQUIRED);
    expect(validatePlan({ ...EMPTY_PLAN_FIELDS, name: '   ' })).toBe('Please enter a plan name');
    expect(validatePlan(filled)).toBeNull();
  });

  it('takes an empty duration as lifetime and refuses anything but whole days in range', () => {
    expect(validatePlan({ ...filled, durationDays: ' 30 ' })).toBeNull();
    for (const durationDays of ['0', '1.5', '-3', '30d', '36501']) {
      expect(validatePlan({ ...filled, durationDays }), durationDays).toBe(PLAN_DURATION_INVALID);
    }
    expect(validatePlan({ ...filled, durationDays: '36500' })).toBeNull();
  });

  it("refuses an entitlement code the server would, in the contract's words", () => {
    expect(validatePlan({ ...filled, entitlements: 'PRO, EXPORT_PDF' })).toBeNull();
    expect(validatePlan({ ...filled, entitlements: 'PRO, EXPORT-PDF' })).toBe(
      ENTITLEMENT_CODE_INVALID,
    );
  });

  it("refuses a device limit the contract refuses, in the contract's words", () => {
    expect(validatePlan({ ...filled, maxDevices: '3' })).toBeNull();
    expect(validatePlan({ ...filled, maxDevices: '100' })).toBeNull();
    expect(validatePlan({ ...filled, maxDevices: '0' })).toBe(
      'Device limit must be at least 1 (leave it empty to keep the application’s)',
    );
    expect(validatePlan({ ...filled, maxDevices: '101' })).toBe(
      `Device limit must be at most ${deviceLimits.maxDevices}`,
    );
    for (const maxDevices of ['2.5', 'three', '3x']) {
      expect(validatePlan({ ...filled, maxDevices }), maxDevices).toBe(
        'Device limit must be a whole number',
      );
    }
  });
});

describe('toPlanRequest and toPlanFields', () => {
  it('sends trimmed text, lifetime as null, codes split on commas and spaces, no description as null', () => {
    expect(
      toPlanRequest({
        name: '  Pro Monthly ',
        durationDays: '',
        entitlements: ' PRO,EXPORT_PDF  BETA\n',
        description: '   ',
        maxDevices: ' ',
        updatesForDays: ' ',
        updatesFrom: 'activation',
        meters: [],
        floating: false,
        seats: '',
        leaseMinutes: '60',
        maxBorrowDays: '0',
      }),
    ).toEqual({
      name: 'Pro Monthly',
      durationDays: null,
      entitlements: ['PRO', 'EXPORT_PDF', 'BETA'],
      description: null,
      maxDevices: null,
      updatesForDays: null,
      updatesFrom: 'activation',
      meters: [],
      floating: false,
      seats: null,
      leaseMinutes: 60,
      maxBorrowDays: 0,
    });
    expect(toPlanRequest({ ...filled, durationDays: '30' }).durationDays).toBe(30);
  });

  it("sends a device limit as a number, and an empty one as null (the application's)", () => {
    expect(toPlanRequest({ ...filled, maxDevices: ' 3 ' }).maxDevices).toBe(3);
    expect(toPlanRequest({ ...filled, maxDevices: '' }).maxDevices).toBeNull();
  });

  it('fills the form from a saved plan', () => {
    const plan = createPlan(1, {
      name: 'Pro',
      durationDays: 30,
      entitlements: ['EXPORT_PDF', 'PRO'],
    });
    expect(toPlanFields(plan)).toEqual({
      name: 'Pro',
      durationDays: '30',
      entitlements: 'EXPORT_PDF, PRO',
      description: '',
      maxDevices: '',
      updatesForDays: '',
      updatesFrom: 'redemption',
      meters: [],
      floating: false,
      seats: '',
      leaseMinutes: '60',
      maxBorrowDays: '0',
    });
    expect(toPlanFields({ ...plan, updatesForDays: 365, updatesFrom: 'activation' })).toMatchObject(
      { updatesForDays: '365', updatesFrom: 'activation' },
    );
    expect(toPlanFields({ ...plan, durationDays: null }).durationDays).toBe('');
    expect(toPlanFields({ ...plan, maxDevices: 5 }).maxDevices).toBe('5');
  });
});

describe('usage meters in the plan form', () => {
  const meter = (fields: Partial<MeterFields>) => ({ ...newMeterFields(), ...fields });

  it('sends each meter with its allowance as a number, and fills rows from a saved plan', () => {
    expect(
      toPlanRequest({
        ...filled,
        meters: [meter({ name: ' exports ', allowance: ' 500 ', resetEvery: 'week' })],
      }).meters,
    ).toEqual([{ name: 'exports', allowance: 500, resetEvery: 'week', overage: 'refuse' }]);
    const plan = createPlan(1, {
      meters: [{ name: 'credits', allowance: 10_000, resetEvery: 'none', overage: 'count' }],
    });
    expect(toPlanFields(plan).meters).toEqual([
      {
        rowId: expect.any(Number),
        name: 'credits',
        allowance: '10000',
        resetEvery: 'none',
        overage: 'count',
      },
    ]);
  });

  it("refuses a meter the contract refuses, in the contract's words, at the meters", () => {
    expect(
      findPlanProblems({ ...filled, meters: [meter({ name: 'exports', allowance: '5' })] }),
    ).toEqual({});
    expect(
      findPlanProblems({ ...filled, meters: [meter({ name: 'two words', allowance: '5' })] })
        .meters,
    ).toBe(METER_NAME_INVALID);
    expect(
      findPlanProblems({ ...filled, meters: [meter({ name: 'exports', allowance: 'many' })] })
        .meters,
    ).toBe(METER_ALLOWANCE_RANGE);
    expect(
      findPlanProblems({
        ...filled,
        meters: [meter({ name: 'a', allowance: '1' }), meter({ name: 'a', allowance: '2' })],
      }).meters,
    ).toBe(METER_NAMES_REPEATED);
  });

  it('words a meter for the plans table', () => {
    expect(
      formatPlanMeter(
        { name: 'exports', allowance: 500, resetEvery: 'month', overage: 'refuse' },
        'en-US',
      ),
    ).toBe('exports: 500 a month');
    expect(
      formatPlanMeter(
        { name: 'credits', allowance: 10_000, resetEvery: 'none', overage: 'count' },
        'en-US',
      ),
    ).toBe('credits: 10,000 in all, overage counted');
  });
});
