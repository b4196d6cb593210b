import { ENTITLEMENT_CODE_INVALID, PLAN_NAME_REQUIRED, type Plan } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_PLAN_FIELDS,
  formatPlanDuration,
  PLAN_DURATION_INVALID,
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
});

describe('toPlanRequest and toPlanFields', () => {
  it('sends trimmed text, lifetime as null, codes split on commas and spaces, no description as null', () => {
    expect(
      toPlanRequest({
        name: '  Pro Monthly ',
        durationDays: '',
        entitlements: ' PRO,EXPORT_PDF  BETA\n',
        description: '   ',
      }),
    ).toEqual({
      name: 'Pro Monthly',
      durationDays: null,
      entitlements: ['PRO', 'EXPORT_PDF', 'BETA'],
      description: null,
    });
    expect(toPlanRequest({ ...filled, durationDays: '30' }).durationDays).toBe(30);
  });

  it('fills the form from a saved plan', () => {
    const plan: Plan = {
      id: '00000000-0000-4000-8000-000000000001',
      applicationId: 7,
      name: 'Pro',
      durationDays: 30,
      entitlements: ['EXPORT_PDF', 'PRO'],
      description: null,
      archived: false,
      createdAt: '2025-03-14T12:00:00.000Z',
      updatedAt: '2025-03-14T12:00:00.000Z',
    };
    expect(toPlanFields(plan)).toEqual({
      name: 'Pro',
      durationDays: '30',
      entitlements: 'EXPORT_PDF, PRO',
      description: '',
    });
    expect(toPlanFields({ ...plan, durationDays: null }).durationDays).toBe('');
  });
});
