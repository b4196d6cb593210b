import { SUBSCRIPTION_EXISTS, type Plan, type Subscription } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dismissToast } from '@/hooks/use-toast.ts';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver, stubScrollIntoView } from '@/test/jsdom-stubs.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import {
  createPlan,
  jsonResponse,
  neverAnswered,
  recordOwnerApi,
  sectionUser,
  sectionUserPath,
  stubOwnerApi,
} from '@/test/stub-owner-api.ts';
import { activeEntitlements, UserSubscriptionsSection } from './user-subscriptions-section.tsx';

const BASE = sectionUserPath('subscriptions');

const plan = (index: number, name: string, overrides: Partial<Plan> = {}): Plan =>
  createPlan(index, { name, durationDays: 30, ...overrides });
const pro = plan(1, 'Pro', { entitlements: ['PRO', 'EXPORT_PDF'] });
const team = plan(2, 'Team', { entitlements: ['TEAM'], durationDays: null });
const old = plan(3, 'Old', { archived: true });

const subscription = (from: Plan, overrides: Partial<Subscription> = {}): Subscription => ({
  id: `50000000-0000-4000-8000-${from.id.slice(-12)}`,
  planId: from.id,
  planName: from.name,
  expiresAt: '2099-01-01T00:00:00.000Z',
  entitlements: [...from.entitlements].sort(),
  isActive: true,
  updatesUntil: null,
  updatesPendingDays: null,
  ...overrides,
});

function stubSubscriptionsApi(initial: Subscription[]) {
  let list = [...initial];
  return recordOwnerApi(({ method, path, body }) => {
    if (path === '/api/applications/7/plans') return jsonResponse(200, [pro, team, old]);
    if (path === BASE && method === 'GET') return jsonResponse(200, list);
    if (path === BASE && method === 'POST') {
      const { planId, expiresAt } = body as { planId: string; expiresAt?: string | null };
      const granted = [pro, team].find(({ id }) => id === planId)!;
      list = [...list, subscription(granted, { expiresAt: expiresAt ?? null })];
      return jsonResponse(201, list);
    }
    const one = list.find(({ id }) => path === `${BASE}/${id}`);
    if (one && method === 'PUT') {
      list = list.map((row) =>
        row.id === one.id ? { ...row, ...(body as Partial<Subscription>) } : row,
      );
      return jsonResponse(200, list);
    }
    if (one && method === 'DELETE') {
      list = list.filter(({ id }) => id !== one.id);
      return jsonResponse(200, list);
    }
    return undefined;
  });
}

const renderSection = () => renderSignedIn(<UserSubscriptionsSection {...sectionUser} />);

describe('UserSubscriptionsSection', { timeout: 30_000 }, () => {
  resetEachTest(stubScrollIntoView, stubResizeObserver);

  it('unites the entitlements of active subscriptions only, sorted', () => {
    expect(
      activeEntitlements([
        subscription(pro),
        subscription(team, { isActive: false }),
        subscription(plan(4, 'Extra', { entitlements: ['PRO', 'API'] })),
      ]),
    ).toEqual(['API', 'EXPORT_PDF', 'PRO']);
  });

  it('shows a skeleton while loading', () => {
    stubOwnerApi(() => neverAnswered());
    renderSection();
    expect(screen.getByRole('status', { name: 'Loading subscriptions' })).toBeTruthy();
  });

  it('lists each plan with its expiry or Lifetime, whether it is active, and the entitlements', async () => {
    stubSubscriptionsApi([
      subscription(pro),
      subscription(team, { expiresAt: null }),
      subscription(plan(4, 'Trial', { entitlements: ['TRIAL'] }), {
        expiresAt: '2020-01-01T00:00:00.000Z',
        isActive: false,
      }),
    ]);
    renderSection();
    const list = await screen.findByRole('list', { name: 'Subscriptions of pilot' });
    const proItem = within(within(list).getByTestId('subscription-Pro'));
    expect(proItem.getByText('Active')).toBeTruthy();
    expect(proItem.getByText(/^Expires /)).toBeTruthy();
    expect(
      within(within(list).getByTestId('subscription-Team')).getByText('Lifetime'),
    ).toBeTruthy();
    expect(
      within(within(list).getByTestId('subscription-Trial')).getByText('Expired'),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Entitlements of pilot' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['EXPORT_PDF', 'PRO', 'TEAM']);
    // Every plan that is not archived is held: there is nothing left to grant.
    expect(screen.queryByRole('group', { name: 'Grant a plan' })).toBeNull();
  });

  it('grants a plan (empty expiry: the plan decides), changes an expiry and removes after a confirmation', async () => {
    const api = stubSubscriptionsApi([subscription(pro)]);
    renderSection();
    const grant = within(await screen.findByRole('group', { name: 'Grant a plan' }));
    const grantButton = grant.getByRole('button', { name: 'Grant' });
    expect(grantButton).toHaveProperty('disabled', true);
    fireEvent.click(grant.getByRole('combobox', { name: 'Grant a plan' }));
    // Only Team: Pro is held and Old is archived.
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Team (Lifetime)']);
    fireEvent.click(options[0]!);
    fireEvent.click(grantButton);
    expect(await findToast('Subscription granted successfully')).toBeTruthy();
    expect(api.sent('POST').map(({ body }) => body)).toEqual([{ planId: team.id }]);
    expect(await screen.findByTestId('subscription-Team')).toBeTruthy();

    dismissToast();
    const proItem = within(screen.getByTestId('subscription-Pro'));
    fireEvent.click(proItem.getByRole('button', { name: 'Change expiry of Pro' }));
    const expiry = proItem.getByLabelText('New expiry of Pro');
    fireEvent.change(expiry, { target: { value: '2030-06-01T12:00' } });
    fireEvent.click(proItem.getByRole('button', { name: 'Save Expiry' }));
    expect(await findToast('Subscription updated successfully')).toBeTruthy();
    expect(api.sent('PUT').map(({ body }) => body)).toEqual([
      { expiresAt: new Date('2030-06-01T12:00').toISOString() },
    ]);
    await waitFor(() => expect(proItem.queryByLabelText('New expiry of Pro')).toBeNull());

    dismissToast();
    fireEvent.click(proItem.getByRole('button', { name: 'Remove Pro' }));
    const confirm = within(
      await screen.findByRole('alertdialog', { name: 'Remove subscription?' }),
    );
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(api.sent('DELETE')).toEqual([]);
    fireEvent.click(proItem.getByRole('button', { name: 'Remove Pro' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Remove subscription?' })).getByRole(
        'button',
        { name: 'Remove Subscription' },
      ),
    );
    expect(await findToast('Subscription removed successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('subscription-Pro')).toBeNull());
  });

  it('shows each updates window and moves a started one with the expiry', async () => {
    const api = stubSubscriptionsApi([
      subscription(pro, { updatesUntil: '2099-03-14T12:00:00.000Z' }),
      subscription(team, { updatesPendingDays: 30 }),
    ]);
    renderSection();
    const proItem = within(await screen.findByTestId('subscription-Pro'));
    expect(proItem.getByText(/^Updates until /)).toBeTruthy();
    const teamItem = within(screen.getByTestId('subscription-Team'));
    expect(teamItem.getByText('30 days of updates from the next sign-in')).toBeTruthy();

    // A window not started yet has no date to move: only the expiry is edited.
    fireEvent.click(teamItem.getByRole('button', { name: 'Change expiry of Team' }));
    expect(teamItem.queryByLabelText('Updates of Team until')).toBeNull();
    fireEvent.click(teamItem.getByRole('button', { name: 'Cancel' }));

    fireEvent.click(proItem.getByRole('button', { name: 'Change expiry of Pro' }));
    const updates = proItem.getByLabelText('Updates of Pro until') as HTMLInputElement;
    expect(updates.value).not.toBe('');
    fireEvent.change(updates, { target: { value: '' } });
    fireEvent.click(proItem.getByRole('button', { name: 'Save Expiry' }));
    expect(await findToast('Subscription updated successfully')).toBeTruthy();
    expect(api.sent('PUT').map(({ body }) => body)).toEqual([
      { expiresAt: '2099-01-01T00:00:00.000Z', updatesUntil: null },
    ]);
    await waitFor(() => expect(proItem.queryByText(/^Updates until /)).toBeNull());
  });

  it("shows the server's refusal as a toast", async () => {
    const api = stubSubscriptionsApi([]);
    renderSection();
    const grant = within(await screen.findByRole('group', { name: 'Grant a plan' }));
    fireEvent.click(grant.getByRole('combobox', { name: 'Grant a plan' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Pro (30 days)' }));
    api.refuseNext('POST', BASE, 409, SUBSCRIPTION_EXISTS);
    fireEvent.click(grant.getByRole('button', { name: 'Grant' }));
    expect(await findToast(SUBSCRIPTION_EXISTS)).toBeTruthy();
  });
});
