import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ENTITLEMENT_CODE_INVALID,
  FLOATING_NEEDS_SEATS,
  PLAN_DURATION_RANGE,
  PLAN_NAME_REQUIRED,
  PLAN_NAME_TAKEN,
  deletedResponseSchema,
  errorBodySchema,
  planListSchema,
  planSchema,
  type Plan,
} from '@latchkey/contracts';
import { plans } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { createApplicationViaApi, createPlanViaApi } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { signInOwner, type SignedInOwner } from '../../../test/test-app.ts';

describe('owner API: plans', () => {
  const clock = createManualClock(new Date('2026-05-01T09:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const request = ownerRequests(testApp, owner);

  const plansUrl = (applicationId: number) => `/api/applications/${applicationId}/plans`;
  const planUrl = (plan: Pick<Plan, 'applicationId' | 'id'>) =>
    `${plansUrl(plan.applicationId)}/${plan.id}`;

  const list = async (applicationId: number, who: SignedInOwner = owner) => {
    const response = await request('GET', plansUrl(applicationId), undefined, who);
    expect(response.statusCode, response.body).toBe(200);
    return planListSchema.parse(response.json());
  };

  const expectError = async (
    response: Awaited<ReturnType<typeof request>>,
    status: number,
    message: string,
  ) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(errorBodySchema.parse(response.json()).message).toBe(message);
  };

  it('creates a plan, answering 201 with it, and lists it', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const response = await request('POST', plansUrl(application.id), {
      name: '  Pro monthly  ',
      durationDays: 30,
      entitlements: ['PRO', 'EXPORT_PDF'],
      description: 'Everything, for a month',
    });
    expect(response.statusCode, response.body).toBe(201);
    const plan = planSchema.parse(response.json());
    expect(plan).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      applicationId: application.id,
      name: 'Pro monthly',
      durationDays: 30,
      entitlements: ['EXPORT_PDF', 'PRO'],
      description: 'Everything, for a month',
      maxDevices: null,
      updatesForDays: null,
      updatesFrom: 'redemption',
      meters: [],
      floating: false,
      seats: null,
      leaseMinutes: 60,
      maxBorrowDays: 0,
      archived: false,
      createdAt: '2026-05-01T09:00:00.000Z',
      updatedAt: '2026-05-01T09:00:00.000Z',
    });
    expect(await list(application.id)).toEqual([plan]);
  });

  it('makes a plan without a duration a lifetime plan, with no entitlements or description', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Lifetime',
      description: '   ',
    });
    expect(plan).toMatchObject({ durationDays: null, entitlements: [], description: null });
    const [row] = await testApp.database.db.select().from(plans).where(eq(plans.id, plan.id));
    expect(row).toMatchObject({ durationDays: null, entitlements: [], description: null });
  });

  it('lists an application’s plans by name, case-insensitively, and only that application’s', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const other = await createApplicationViaApi(testApp.app, owner);
    for (const name of ['beta', 'Charlie', 'Alpha']) {
      await createPlanViaApi(testApp.app, owner, application.id, { name });
    }
    await createPlanViaApi(testApp.app, owner, other.id, { name: 'Aardvark' });
    expect((await list(application.id)).map((plan) => plan.name)).toEqual([
      'Alpha',
      'beta',
      'Charlie',
    ]);
    expect((await list(other.id)).map((plan) => plan.name)).toEqual(['Aardvark']);
  });

  it('deduplicates and sorts entitlement codes, on creation and on edit', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id, {
      entitlements: ['PRO', 'EXPORT_PDF', 'PRO', 'API_2', 'EXPORT_PDF'],
    });
    expect(plan.entitlements).toEqual(['API_2', 'EXPORT_PDF', 'PRO']);
    const edited = await request('PUT', planUrl(plan), { entitlements: ['Z', 'A', 'Z'] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(planSchema.parse(edited.json()).entitlements).toEqual(['A', 'Z']);
    const [row] = await testApp.database.db.select().from(plans).where(eq(plans.id, plan.id));
    expect(row?.entitlements).toEqual(['A', 'Z']);
  });

  it('edits only the fields sent, and stamps updatedAt', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Basic',
      durationDays: 7,
      entitlements: ['BASIC'],
      description: 'A week',
    });
    clock.advance(60_000);
    const response = await request('PUT', planUrl(plan), {
      name: 'Basic yearly',
      durationDays: 365,
    });
    expect(response.statusCode, response.body).toBe(200);
    const edited = planSchema.parse(response.json());
    expect(edited).toEqual({
      ...plan,
      name: 'Basic yearly',
      durationDays: 365,
      updatedAt: new Date(Date.parse(plan.updatedAt) + 60_000).toISOString(),
    });
    const lifetime = await request('PUT', planUrl(plan), { durationDays: null, description: null });
    expect(planSchema.parse(lifetime.json())).toMatchObject({
      durationDays: null,
      description: null,
      entitlements: ['BASIC'],
    });
    expect(await list(application.id)).toEqual([planSchema.parse(lifetime.json())]);
  });

  it('archives a plan with PUT and restores it; it stays in the list', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id);
    const archived = await request('PUT', planUrl(plan), { archived: true });
    expect(archived.statusCode, archived.body).toBe(200);
    expect(planSchema.parse(archived.json()).archived).toBe(true);
    expect((await list(application.id)).map((listed) => listed.archived)).toEqual([true]);
    const restored = await request('PUT', planUrl(plan), { archived: false });
    expect(planSchema.parse(restored.json()).archived).toBe(false);
  });

  it('deletes a plan', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const kept = await createPlanViaApi(testApp.app, owner, application.id, { name: 'Kept' });
    const plan = await createPlanViaApi(testApp.app, owner, application.id, { name: 'Gone' });
    const response = await request('DELETE', planUrl(plan));
    expect(response.statusCode, response.body).toBe(200);
    expect(deletedResponseSchema.parse(response.json())).toEqual({
      success: true,
      message: 'Plan deleted successfully',
    });
    expect(await list(application.id)).toEqual([kept]);
    await expectError(await request('DELETE', planUrl(plan)), 404, 'Plan not found');
    await expectError(await request('PUT', planUrl(plan), { name: 'Back' }), 404, 'Plan not found');
  });

  it.each([
    [{ name: '' }, PLAN_NAME_REQUIRED],
    [{ name: '   ' }, PLAN_NAME_REQUIRED],
    [{}, PLAN_NAME_REQUIRED],
    [{ name: 'x'.repeat(101) }, 'name: Plan name must be at most 100 characters'],
    [
      { name: 'Pro', description: 'x'.repeat(501) },
      'description: Description must be at most 500 characters',
    ],
    [{ name: 'Pro', entitlements: ['EXPORT-PDF'] }, `entitlements.0: ${ENTITLEMENT_CODE_INVALID}`],
    [{ name: 'Pro', entitlements: ['OK', 'Ü'] }, `entitlements.1: ${ENTITLEMENT_CODE_INVALID}`],
    [{ name: 'Pro', entitlements: [''] }, `entitlements.0: ${ENTITLEMENT_CODE_INVALID}`],
    [
      { name: 'Pro', entitlements: ['A'.repeat(65)] },
      `entitlements.0: ${ENTITLEMENT_CODE_INVALID}`,
    ],
    [
      { name: 'Pro', entitlements: Array.from({ length: 51 }, (_, index) => `E${index}`) },
      'entitlements: A plan can have at most 50 entitlements',
    ],
    [{ name: 'Pro', durationDays: 0 }, `durationDays: ${PLAN_DURATION_RANGE}`],
    [{ name: 'Pro', durationDays: 36_501 }, `durationDays: ${PLAN_DURATION_RANGE}`],
    [
      { name: 'Pro', durationDays: 1.5 },
      'durationDays: Duration must be a whole number of days, or null for lifetime',
    ],
  ])('refuses %j on creation with a clear message', async (body, message) => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const response = await request('POST', plansUrl(application.id), body);
    await expectError(response, 400, message.startsWith('Please') ? `name: ${message}` : message);
    expect(await list(application.id)).toEqual([]);
  });

  it('accepts the limits themselves: 1 and 36500 days, 50 codes of 64 characters', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const codes = Array.from(
      { length: 50 },
      (_, index) => `${String(index).padStart(2, '0')}${'X'.repeat(62)}`,
    );
    const oneDay = await createPlanViaApi(testApp.app, owner, application.id, { durationDays: 1 });
    const longest = await createPlanViaApi(testApp.app, owner, application.id, {
      durationDays: 36_500,
      entitlements: codes,
      name: 'n'.repeat(100),
    });
    expect(oneDay.durationDays).toBe(1);
    expect(longest.entitlements).toEqual(codes);
  });

  it('refuses bad edits with a clear message and leaves the plan as it was', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id);
    await expectError(
      await request('PUT', planUrl(plan), { name: ' ' }),
      400,
      `name: ${PLAN_NAME_REQUIRED}`,
    );
    await expectError(
      await request('PUT', planUrl(plan), { entitlements: ['PRO', 'no spaces'] }),
      400,
      `entitlements.1: ${ENTITLEMENT_CODE_INVALID}`,
    );
    await expectError(
      await request('PUT', planUrl(plan), { durationDays: -5 }),
      400,
      `durationDays: ${PLAN_DURATION_RANGE}`,
    );
    await expectError(
      await request('PUT', planUrl(plan), { archived: 'yes' }),
      400,
      'archived: archived must be true or false',
    );
    // Floating needs its seats: in the same edit, or already on the plan.
    await expectError(
      await request('PUT', planUrl(plan), { floating: true }),
      400,
      FLOATING_NEEDS_SEATS,
    );
    await expectError(
      await request('PUT', planUrl(plan), { floating: true, seats: 0 }),
      400,
      'seats: Seats must be between 1 and 10000',
    );
    await expectError(
      await request('PUT', planUrl(plan), { leaseMinutes: 2 }),
      400,
      'leaseMinutes: Lease must be between 5 and 1440 minutes',
    );
    expect(await list(application.id)).toEqual([plan]);
  });

  it('makes a plan floating, with its seats, lease and borrowing', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const created = await request('POST', `/api/applications/${application.id}/plans`, {
      name: 'Team',
      floating: true,
      seats: 10,
      leaseMinutes: 30,
      maxBorrowDays: 14,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(planSchema.parse(created.json())).toMatchObject({
      floating: true,
      seats: 10,
      leaseMinutes: 30,
      maxBorrowDays: 14,
    });
    await expectError(
      await request('POST', `/api/applications/${application.id}/plans`, {
        name: 'Seatless',
        floating: true,
      }),
      400,
      `seats: ${FLOATING_NEEDS_SEATS}`,
    );
  });

  it('refuses a name the application already has, in any case, with 409', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const other = await createApplicationViaApi(testApp.app, owner);
    const pro = await createPlanViaApi(testApp.app, owner, application.id, { name: 'Pro' });
    const basic = await createPlanViaApi(testApp.app, owner, application.id, { name: 'Basic' });
    const duplicate = await request('POST', plansUrl(application.id), { name: 'pRO' });
    await expectError(duplicate, 409, PLAN_NAME_TAKEN);
    expect(errorBodySchema.parse(duplicate.json()).code).toBe('CONFLICT');
    await expectError(await request('PUT', planUrl(basic), { name: 'PRO ' }), 409, PLAN_NAME_TAKEN);
    expect(await list(application.id)).toEqual([basic, pro]);
    // Another application may have a plan of the same name; renaming to its own name is no change.
    await createPlanViaApi(testApp.app, owner, other.id, { name: 'Pro' });
    const same = await request('PUT', planUrl(pro), { name: 'Pro' });
    expect(same.statusCode, same.body).toBe(200);
  });

  it("answers 404 for another owner's application or plan, and changes nothing", async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id);
    const stranger = await signInOwner(testApp.app);
    const strangersApplication = await createApplicationViaApi(testApp.app, stranger);
    const notFound = 'Application not found';
    await expectError(
      await request('GET', plansUrl(application.id), undefined, stranger),
      404,
      notFound,
    );
    await expectError(
      await request('POST', plansUrl(application.id), { name: 'Planted' }, stranger),
      404,
      notFound,
    );
    await expectError(
      await request('PUT', planUrl(plan), { archived: true }, stranger),
      404,
      notFound,
    );
    await expectError(await request('DELETE', planUrl(plan), undefined, stranger), 404, notFound);
    // Through the stranger's own application, the plan does not exist.
    const throughOwn = { applicationId: strangersApplication.id, id: plan.id };
    await expectError(
      await request('PUT', planUrl(throughOwn), { archived: true }, stranger),
      404,
      'Plan not found',
    );
    await expectError(
      await request('DELETE', planUrl(throughOwn), undefined, stranger),
      404,
      'Plan not found',
    );
    expect(await list(application.id)).toEqual([plan]);
  });

  it("answers 404 for a plan of the same owner's other application", async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const other = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id);
    const elsewhere = { applicationId: other.id, id: plan.id };
    await expectError(
      await request('PUT', planUrl(elsewhere), { name: 'Moved' }),
      404,
      'Plan not found',
    );
    await expectError(await request('DELETE', planUrl(elsewhere)), 404, 'Plan not found');
    expect(await list(application.id)).toEqual([plan]);
    expect(await list(other.id)).toEqual([]);
  });

  it('answers 400 for a plan id that is not a UUID', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    await expectError(
      await request('PUT', `${plansUrl(application.id)}/42`, { name: 'x' }),
      400,
      'planId: Invalid plan id',
    );
  });

  it('deletes an application’s plans with the application', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const kept = await createApplicationViaApi(testApp.app, owner);
    await createPlanViaApi(testApp.app, owner, application.id);
    await createPlanViaApi(testApp.app, owner, application.id);
    const keptPlan = await createPlanViaApi(testApp.app, owner, kept.id);
    const response = await request('DELETE', `/api/applications/${application.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const db = testApp.database.db;
    expect(await db.select().from(plans).where(eq(plans.applicationId, application.id))).toEqual(
      [],
    );
    expect(await list(kept.id)).toEqual([keptPlan]);
  });
});
