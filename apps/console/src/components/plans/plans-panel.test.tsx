import {
  PLAN_IN_USE,
  PLAN_NAME_REQUIRED,
  PLAN_NAME_TAKEN,
  ENTITLEMENT_CODE_INVALID,
  type Plan,
  METER_NAME_INVALID,
} from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dismissToast } from '@/hooks/use-toast.ts';
import { findToast } from '@/test/find-toast.ts';
import { openDialog } from '@/test/open-dialog.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { stubResizeObserver, stubScrollIntoView } from '@/test/jsdom-stubs.ts';
import { resetEachTest } from '@/test/reset-each-test.ts';
import {
  createPlan,
  neverAnswered,
  orbit,
  stubCollectionApi,
  stubOwnerApi,
} from '@/test/stub-owner-api.ts';
import { PLAN_DURATION_INVALID, PLAN_UPDATES_INVALID } from './plan-display.ts';
import { PlansPanel } from './plans-panel.tsx';

const PLANS_PATH = '/api/applications/7/plans';

/**
 * A stand-in for the plans API of packages/contracts/src/plans.ts, holding the plans in
 * memory so the list refreshes after each change.
 */
function stubPlansApi(initial: Plan[] = []) {
  return stubCollectionApi({
    path: PLANS_PATH,
    initial,
    create: createPlan,
    update: (plan, changes) => ({ ...plan, ...changes, updatedAt: '2025-03-15T12:00:00.000Z' }),
    deletedMessage: 'Plan deleted successfully',
  });
}

const renderPanel = () => renderSignedIn(<PlansPanel application={orbit} />);
const openCreateDialog = () => openDialog('Create Plan');

describe('PlansPanel', { timeout: 30_000 }, () => {
  resetEachTest(stubScrollIntoView, stubResizeObserver);

  it('shows a skeleton while the plans load', () => {
    stubOwnerApi(() => neverAnswered());
    renderPanel();
    expect(screen.getByRole('status', { name: 'Loading plans' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('invites the first plan when there is none', async () => {
    stubPlansApi();
    renderPanel();
    const heading = await screen.findByRole('heading', { name: 'No plans yet' });
    expect(screen.queryByRole('table')).toBeNull();
    // The empty state has its own Create Plan button, beside the one in the header.
    expect(
      within(heading.parentElement!).getByRole('button', { name: 'Create Plan' }),
    ).toBeTruthy();
  });

  it("shows a load failure in the server's words and recovers on Try Again", async () => {
    const api = stubPlansApi([createPlan(1)]);
    api.refuseNext('GET', PLANS_PATH, 500, 'Database unavailable');
    renderPanel();
    expect(await screen.findByRole('heading', { name: 'Error loading plans' })).toBeTruthy();
    expect(screen.getByText('Database unavailable')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId(`plan-row-${createPlan(1).id}`)).toBeTruthy();
  });

  it('lists each plan with its duration, entitlements as badges and status', async () => {
    const monthly = createPlan(1, {
      name: 'Pro Monthly',
      durationDays: 30,
      entitlements: ['EXPORT_PDF', 'PRO'],
      description: 'Everything, billed monthly',
    });
    const legacy = createPlan(2, { name: 'Legacy', archived: true });
    stubPlansApi([monthly, legacy]);
    renderPanel();

    const monthlyRow = within(await screen.findByTestId(`plan-row-${monthly.id}`));
    expect(monthlyRow.getByText('Pro Monthly')).toBeTruthy();
    expect(monthlyRow.getByText('Everything, billed monthly')).toBeTruthy();
    expect(monthlyRow.getByText('30 days')).toBeTruthy();
    expect(
      within(monthlyRow.getByRole('list', { name: 'Entitlements of Pro Monthly' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['EXPORT_PDF', 'PRO']);
    expect(monthlyRow.getByText('Active')).toBeTruthy();
    expect(monthlyRow.getByRole('button', { name: 'Archive plan' })).toBeTruthy();

    const legacyRow = within(screen.getByTestId(`plan-row-${legacy.id}`));
    expect(legacyRow.getByText('Lifetime')).toBeTruthy();
    expect(legacyRow.getByText('None')).toBeTruthy();
    expect(legacyRow.getByText('Archived')).toBeTruthy();
    expect(legacyRow.getByRole('button', { name: 'Unarchive plan' })).toBeTruthy();
    // The whole list arrives in one answer: there is nothing to page.
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('checks the form before sending: the name, the duration and the codes', async () => {
    const api = stubPlansApi();
    renderPanel();
    await screen.findByRole('heading', { name: 'No plans yet' });
    const dialog = await openCreateDialog();

    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(dialog.getByRole('alert').textContent).toBe(PLAN_NAME_REQUIRED);
    expect(dialog.getByRole('textbox', { name: /^Name/ }).getAttribute('aria-required')).toBe(
      'true',
    );

    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'Pro' } });
    fireEvent.change(dialog.getByLabelText('Duration in days (optional)'), {
      target: { value: '30d' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(dialog.getByRole('alert').textContent).toBe(PLAN_DURATION_INVALID);

    fireEvent.change(dialog.getByLabelText('Duration in days (optional)'), {
      target: { value: '30' },
    });
    fireEvent.change(dialog.getByLabelText('Entitlements (optional)'), {
      target: { value: 'PRO, EXPORT-PDF' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(dialog.getByRole('alert').textContent).toBe(ENTITLEMENT_CODE_INVALID);

    // Every field's problem at once, each at its field.
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: ' ' } });
    fireEvent.change(dialog.getByLabelText('Duration in days (optional)'), {
      target: { value: '-3' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(dialog.getAllByRole('alert').map(({ textContent }) => textContent)).toHaveLength(3);
    for (const label of [/^Name/, 'Duration in days (optional)', 'Entitlements (optional)']) {
      expect(dialog.getByLabelText(label).getAttribute('aria-invalid')).toBe('true');
    }
    expect(api.sent('POST')).toEqual([]);
  });

  it('creates a plan, toasts, closes and lists it', async () => {
    const api = stubPlansApi();
    renderPanel();
    await screen.findByRole('heading', { name: 'No plans yet' });
    const dialog = await openCreateDialog();
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: '  Pro Yearly ' } });
    fireEvent.change(dialog.getByLabelText('Duration in days (optional)'), {
      target: { value: '365' },
    });
    fireEvent.change(dialog.getByLabelText('Entitlements (optional)'), {
      target: { value: 'PRO EXPORT_PDF' },
    });
    fireEvent.change(dialog.getByLabelText('Description (optional)'), {
      target: { value: 'A year of everything' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));

    expect(await findToast('Plan created successfully')).toBeTruthy();
    expect(api.sent('POST').map(({ body }) => body)).toEqual([
      {
        name: 'Pro Yearly',
        durationDays: 365,
        entitlements: ['PRO', 'EXPORT_PDF'],
        description: 'A year of everything',
        maxDevices: null,
        updatesForDays: null,
        updatesFrom: 'redemption',
        meters: [],
        floating: false,
        seats: null,
        leaseMinutes: 60,
        maxBorrowDays: 0,
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = within(await screen.findByTestId(`plan-row-${createPlan(100).id}`));
    expect(row.getByText('Pro Yearly')).toBeTruthy();
    expect(row.getByText('365 days')).toBeTruthy();
  });

  it("shows the server's refusal as a toast and keeps the dialog open", async () => {
    const api = stubPlansApi([createPlan(1, { name: 'Pro' })]);
    renderPanel();
    await screen.findByTestId(`plan-row-${createPlan(1).id}`);
    const dialog = await openCreateDialog();
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'pro' } });
    api.refuseNext('POST', PLANS_PATH, 409, PLAN_NAME_TAKEN);
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(await findToast(PLAN_NAME_TAKEN)).toBeTruthy();
    expect(screen.getByText('Error', { selector: 'li *' })).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Create Plan' })).toBeTruthy();
  });

  it('edits a plan from its saved values', async () => {
    const monthly = createPlan(1, { name: 'Pro', durationDays: 30, entitlements: ['PRO'] });
    const api = stubPlansApi([monthly]);
    renderPanel();
    fireEvent.click(
      within(await screen.findByTestId(`plan-row-${monthly.id}`)).getByRole('button', {
        name: 'Edit plan',
      }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Plan' }));
    expect((dialog.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Pro');
    const duration = dialog.getByLabelText('Duration in days (optional)') as HTMLInputElement;
    expect(duration.value).toBe('30');
    fireEvent.change(duration, { target: { value: '' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));

    expect(await findToast('Plan updated successfully')).toBeTruthy();
    expect(api.sent('PUT', `${PLANS_PATH}/${monthly.id}`).map(({ body }) => body)).toEqual([
      {
        name: 'Pro',
        durationDays: null,
        entitlements: ['PRO'],
        description: null,
        maxDevices: null,
        updatesForDays: null,
        updatesFrom: 'redemption',
        meters: [],
        floating: false,
        seats: null,
        leaseMinutes: 60,
        maxBorrowDays: 0,
      },
    ]);
    const row = within(screen.getByTestId(`plan-row-${monthly.id}`));
    expect(await row.findByText('Lifetime')).toBeTruthy();
  });

  it('sends a device limit as a number, shows it under the plan, and an emptied one as null', async () => {
    const api = stubPlansApi();
    renderPanel();
    await screen.findByRole('heading', { name: 'No plans yet' });
    const dialog = await openCreateDialog();
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'Team' } });
    const limit = dialog.getByLabelText('Device limit (optional)');
    expect(document.getElementById(limit.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /empty to keep the application's limit/,
    );
    fireEvent.change(limit, { target: { value: '0' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(dialog.getByRole('alert').textContent).toMatch(/^Device limit must be at least 1/);
    expect(api.sent('POST')).toEqual([]);

    fireEvent.change(limit, { target: { value: ' 3 ' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(await findToast('Plan created successfully')).toBeTruthy();
    expect(api.sent('POST').map(({ body }) => body)).toEqual([
      expect.objectContaining({ name: 'Team', maxDevices: 3 }),
    ]);
    const row = within(await screen.findByTestId(`plan-row-${createPlan(100).id}`));
    expect(row.getByText('3 devices')).toBeTruthy();

    dismissToast();
    fireEvent.click(row.getByRole('button', { name: 'Edit plan' }));
    const editDialog = within(await screen.findByRole('dialog', { name: 'Edit Plan' }));
    const savedLimit = editDialog.getByLabelText('Device limit (optional)') as HTMLInputElement;
    expect(savedLimit.value).toBe('3');
    fireEvent.change(savedLimit, { target: { value: '' } });
    fireEvent.click(editDialog.getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Plan updated successfully')).toBeTruthy();
    expect(api.sent('PUT', `${PLANS_PATH}/${createPlan(100).id}`).map(({ body }) => body)).toEqual([
      expect.objectContaining({ maxDevices: null }),
    ]);
    await waitFor(() => expect(row.queryByText('3 devices')).toBeNull());
  });

  it('sends an updates window and when it starts, and shows it under the duration', async () => {
    const api = stubPlansApi();
    renderPanel();
    await screen.findByRole('heading', { name: 'No plans yet' });
    const dialog = await openCreateDialog();
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'Perpetual' } });
    const updates = dialog.getByLabelText('Updates in days (optional)');
    fireEvent.change(updates, { target: { value: '1y' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(dialog.getByRole('alert').textContent).toBe(PLAN_UPDATES_INVALID);
    expect(api.sent('POST')).toEqual([]);

    fireEvent.change(updates, { target: { value: '365' } });
    const from = dialog.getByRole('combobox', { name: 'Updates counted from' });
    expect(from.textContent).toBe('When the plan is granted');
    fireEvent.click(from);
    fireEvent.click(await screen.findByRole('option', { name: 'At the first sign-in after that' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(await findToast('Plan created successfully')).toBeTruthy();
    expect(api.sent('POST').map(({ body }) => body)).toEqual([
      expect.objectContaining({ updatesForDays: 365, updatesFrom: 'activation' }),
    ]);
    const row = within(await screen.findByTestId(`plan-row-${createPlan(100).id}`));
    expect(row.getByText('365 days of updates from first sign-in')).toBeTruthy();
  });

  it('adds, checks and removes usage meters, sends them, and lists them under the entitlements', async () => {
    const api = stubPlansApi();
    renderPanel();
    await screen.findByRole('heading', { name: 'No plans yet' });
    const dialog = await openCreateDialog();
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'Metered' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add Meter' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Add Meter' }));
    expect(dialog.getAllByTestId('plan-meter-row')).toHaveLength(2);
    const [firstName, secondName] = dialog.getAllByLabelText('Meter name');
    const [firstAllowance, secondAllowance] = dialog.getAllByLabelText('Allowance');
    fireEvent.change(firstName!, { target: { value: 'exports' } });
    fireEvent.change(firstAllowance!, { target: { value: '500' } });
    fireEvent.change(secondName!, { target: { value: 'two words' } });
    fireEvent.change(secondAllowance!, { target: { value: '10' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(METER_NAME_INVALID);
    expect(api.sent('POST')).toEqual([]);

    fireEvent.click(dialog.getByRole('button', { name: 'Remove two words' }));
    expect(dialog.getAllByTestId('plan-meter-row')).toHaveLength(1);
    fireEvent.click(dialog.getByRole('combobox', { name: 'Past the allowance' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Count as overage' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Create Plan' }));
    expect(await findToast('Plan created successfully')).toBeTruthy();
    expect(api.sent('POST').map(({ body }) => body)).toEqual([
      expect.objectContaining({
        meters: [{ name: 'exports', allowance: 500, resetEvery: 'month', overage: 'count' }],
      }),
    ]);
    const row = within(await screen.findByTestId(`plan-row-${createPlan(100).id}`));
    expect(row.getByText('exports: 500 a month, overage counted')).toBeTruthy();
  });

  it('archives a plan and unarchives it, each with its toast', async () => {
    const pro = createPlan(1, { name: 'Pro' });
    const api = stubPlansApi([pro]);
    renderPanel();
    const row = within(await screen.findByTestId(`plan-row-${pro.id}`));
    fireEvent.click(row.getByRole('button', { name: 'Archive plan' }));
    expect(await findToast('Plan archived successfully')).toBeTruthy();
    expect(await row.findByText('Archived')).toBeTruthy();

    fireEvent.click(await row.findByRole('button', { name: 'Unarchive plan' }));
    expect(await findToast('Plan unarchived successfully')).toBeTruthy();
    expect(await row.findByText('Active')).toBeTruthy();
    expect(api.sent('PUT', `${PLANS_PATH}/${pro.id}`).map(({ body }) => body)).toEqual([
      { archived: true },
      { archived: false },
    ]);
  });

  it("deletes only after confirming, and shows the server's reason when a plan is in use", async () => {
    const used = createPlan(1, { name: 'Used' });
    const unused = createPlan(2, { name: 'Unused' });
    const api = stubPlansApi([used, unused]);
    renderPanel();

    const usedRow = within(await screen.findByTestId(`plan-row-${used.id}`));
    fireEvent.click(usedRow.getByRole('button', { name: 'Delete plan' }));
    let confirm = within(await screen.findByRole('alertdialog', { name: 'Delete plan?' }));
    expect(confirm.getByText('Used')).toBeTruthy();
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.sent('DELETE', `${PLANS_PATH}/${used.id}`)).toEqual([]);

    api.refuseNext('DELETE', `${PLANS_PATH}/${used.id}`, 409, PLAN_IN_USE);
    fireEvent.click(usedRow.getByRole('button', { name: 'Delete plan' }));
    confirm = within(await screen.findByRole('alertdialog', { name: 'Delete plan?' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Delete Plan' }));
    expect(await findToast(PLAN_IN_USE)).toBeTruthy();
    expect(screen.getByTestId(`plan-row-${used.id}`)).toBeTruthy();

    dismissToast();
    fireEvent.click(
      within(screen.getByTestId(`plan-row-${unused.id}`)).getByRole('button', {
        name: 'Delete plan',
      }),
    );
    confirm = within(await screen.findByRole('alertdialog', { name: 'Delete plan?' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Delete Plan' }));
    expect(await findToast('Plan deleted successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId(`plan-row-${unused.id}`)).toBeNull());
  });
});
