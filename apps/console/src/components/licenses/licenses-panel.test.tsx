import {
  LICENSE_COUNT_RANGE,
  LICENSE_BAN_REASON_REQUIRED,
  LICENSE_REDEEM_BY_PAST,
  type License,
  type Plan,
} from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { dismissToast } from '@/hooks/use-toast.ts';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { openDialog } from '@/test/open-dialog.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import {
  createPlan,
  jsonResponse,
  neverAnswered,
  orbit,
  pagedResponse,
  recordOwnerApi,
  stubOwnerApi,
} from '@/test/stub-owner-api.ts';
import { PLAN_REQUIRED } from './license-display.ts';
import { LicensesPanel } from './licenses-panel.tsx';

const LICENSES_PATH = '/api/applications/7/licenses';

const uuid = (prefix: string, index: number) =>
  `${prefix}0000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

const pro = createPlan(1, { name: 'Pro', durationDays: 30, entitlements: ['PRO'] });
const legacy: Plan = { ...pro, id: uuid('1', 2), name: 'Legacy', archived: true };

const license = (index: number, overrides: Partial<License> = {}): License => ({
  id: uuid('2', index),
  key: `*****-*****-*****-*****-*${String(index).padStart(4, '0')}`,
  planId: pro.id,
  status: 'unused',
  note: null,
  redeemBy: null,
  usedByUserId: null,
  usedByUsername: null,
  usedAt: null,
  bannedReason: null,
  createdAt: '2025-03-14T12:00:00.000Z',
  ...overrides,
});

/**
 * A stand-in for the licences API: the keys in memory, filtered by status, so the list
 * refreshes after each change; `refuseNext` answers the next `METHOD path` with an error, and
 * `refuseNextWith` with an error body of its own (a 400's refused `fields`).
 */
function stubLicensesApi(initial: License[] = [], plans: Plan[] = [pro, legacy]) {
  let licenses = [...initial];
  const refusalBodies = new Map<string, unknown>();
  const api = recordOwnerApi(
    ({ method, url, body }) => {
      const refusal = `${method} ${url.pathname}`;
      if (refusalBodies.has(refusal)) {
        const answer = jsonResponse(400, refusalBodies.get(refusal));
        refusalBodies.delete(refusal);
        return answer;
      }
      if (url.pathname === '/api/applications/7/plans') return jsonResponse(200, plans);
      if (url.pathname === LICENSES_PATH && method === 'GET') {
        const status = url.searchParams.get('status');
        const planId = url.searchParams.get('planId');
        const matches = licenses.filter(
          (row) => (!status || row.status === status) && (!planId || row.planId === planId),
        );
        const pageSize = Number(url.searchParams.get('pageSize') ?? 50);
        return pagedResponse(matches.slice(0, pageSize), { pageSize, total: matches.length });
      }
      if (url.pathname === LICENSES_PATH && method === 'POST') {
        const { count } = body as { count: number };
        const keys = Array.from({ length: count }, (_, index) => ({
          id: uuid('3', index + 1),
          key: `AAAAA-BBBBB-CCCCC-DDDDD-E${String(index).padStart(4, '0')}`,
        }));
        licenses = [...keys.map(({ id }, index) => license(100 + index, { id })), ...licenses];
        return jsonResponse(201, { keys });
      }
      const one = licenses.find(({ id }) => url.pathname.startsWith(`${LICENSES_PATH}/${id}`));
      if (one && url.pathname.endsWith('/key')) {
        return jsonResponse(200, { key: `FULL-KEY-${one.key.slice(-4)}` });
      }
      if (one && url.pathname.endsWith('/ban')) {
        const banned = {
          ...one,
          status: 'banned' as const,
          bannedReason: (body as { reason: string }).reason,
        };
        licenses = licenses.map((row) => (row.id === one.id ? banned : row));
        return jsonResponse(200, banned);
      }
      if (one && method === 'DELETE') {
        licenses = licenses.filter((row) => row.id !== one.id);
        return jsonResponse(200, { success: true, message: 'Licence key deleted successfully' });
      }
      if (url.pathname === `/api/applications/7/plans/${pro.id}/delete-unused`) {
        const before = licenses.length;
        licenses = licenses.filter((row) => row.status !== 'unused' || row.planId !== pro.id);
        const deletedCount = before - licenses.length;
        return jsonResponse(200, {
          success: true,
          message: `${deletedCount} deleted`,
          deletedCount,
        });
      }
      return undefined;
    },
    { errorCode: 'INTERNAL' },
  );
  // The keys' own requests unless another path is named: plans are read beside them.
  return {
    ...api,
    sent: (method: string, pathname = LICENSES_PATH) => api.sent(method, pathname),
    refuseNextWith: (method: string, pathname: string, body: unknown) =>
      refusalBodies.set(`${method} ${pathname}`, body),
  };
}

/** The words said below a field: its problem, found by the id the field names it by. */
const problemOf = (control: HTMLElement) =>
  document.getElementById(`${control.id}-problem`)?.textContent ?? null;

const renderPanel = () => renderSignedIn(<LicensesPanel application={orbit} />);
const openGenerateDialog = () => openDialog('Generate Keys', 'Generate Licence Keys');

describe('LicensesPanel', { timeout: 30_000 }, () => {
  resetEachTest(stubResizeObserver);

  it('shows a skeleton while the keys load', () => {
    stubOwnerApi(() => neverAnswered());
    renderPanel();
    expect(screen.getByRole('status', { name: 'Loading licence keys' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('invites the first keys when there are none', async () => {
    stubLicensesApi();
    renderPanel();
    const heading = await screen.findByRole('heading', { name: 'No licence keys yet' });
    expect(
      within(heading.parentElement!).getByRole('button', { name: 'Generate Keys' }),
    ).toBeTruthy();
  });

  it("shows a load failure in the server's words and recovers on Try Again", async () => {
    const api = stubLicensesApi([license(1)]);
    api.refuseNext('GET', LICENSES_PATH, 500, 'Database unavailable');
    renderPanel();
    expect(await screen.findByRole('heading', { name: 'Error loading licence keys' })).toBeTruthy();
    expect(screen.getByText('Database unavailable')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId(`license-row-${license(1).id}`)).toBeTruthy();
  });

  it('lists keys with their status, plan, note and holder; the export link keeps the filters', async () => {
    stubLicensesApi([
      license(1, { note: 'Order 42' }),
      license(2, {
        status: 'used',
        usedByUserId: uuid('4', 1),
        usedByUsername: 'pilot',
        usedAt: '2025-03-15T12:00:00.000Z',
      }),
      license(3, { status: 'banned', bannedReason: 'Chargeback' }),
    ]);
    renderPanel();
    const unused = within(await screen.findByTestId(`license-row-${license(1).id}`));
    expect(unused.getByText('Unused')).toBeTruthy();
    expect(await unused.findByText('Pro')).toBeTruthy();
    expect(unused.getByText('Order 42')).toBeTruthy();
    expect(unused.getByText('Nobody')).toBeTruthy();
    const used = within(screen.getByTestId(`license-row-${license(2).id}`));
    expect(used.getByText('Used')).toBeTruthy();
    expect(used.getByText('pilot')).toBeTruthy();
    const banned = within(screen.getByTestId(`license-row-${license(3).id}`));
    expect(banned.getByText('Banned')).toBeTruthy();
    expect(banned.getByText('Chargeback')).toBeTruthy();
    expect(banned.getByRole('button', { name: 'Unban key' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      `${LICENSES_PATH}/export.csv`,
    );
  });

  it('checks the plan, the count and the mask before sending, and says how strong the mask is', async () => {
    const api = stubLicensesApi();
    renderPanel();
    await screen.findByRole('heading', { name: 'No licence keys yet' });
    const dialog = await openGenerateDialog();
    // Archived plans get no new keys: with one plan on offer it is chosen already.
    expect(dialog.getByRole('combobox', { name: /^Plan/ }).textContent).toContain('Pro');

    const count = dialog.getByLabelText(/^Number of keys/);
    for (const value of ['0', '10001', '12k', '']) {
      fireEvent.change(count, { target: { value } });
      fireEvent.click(dialog.getByRole('button', { name: 'Generate Keys' }));
      expect(dialog.getByRole('alert').textContent).toBe(LICENSE_COUNT_RANGE);
      expect(count.getAttribute('aria-invalid')).toBe('true');
      expect(problemOf(count)).toBe(LICENSE_COUNT_RANGE);
    }

    fireEvent.change(count, { target: { value: '10000' } });
    const mask = dialog.getByLabelText('Mask');
    expect(document.getElementById(mask.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /^125 bits of randomness/,
    );
    fireEvent.change(mask, { target: { value: 'XXXX-XXXX' } });
    const hint = document.getElementById(mask.getAttribute('aria-describedby')!)!;
    expect(hint.textContent).toMatch(/needs at least 16 X characters.*this one has 40 bits/);
    expect(mask.getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(dialog.getByRole('button', { name: 'Generate Keys' }));
    expect(dialog.getByRole('alert').textContent).toBe(hint.textContent);
    expect(problemOf(mask)).toBe(hint.textContent);
    expect(api.sent('POST')).toEqual([]);
  });

  it("says every problem at its field at once, the first focused, then the server's at its field", async () => {
    const api = stubLicensesApi();
    renderPanel();
    await screen.findByRole('heading', { name: 'No licence keys yet' });
    const dialog = await openGenerateDialog();
    const count = dialog.getByLabelText(/^Number of keys/);
    const mask = dialog.getByLabelText('Mask');
    const redeemBy = dialog.getByLabelText('Redeem by (optional)');
    fireEvent.change(count, { target: { value: '0' } });
    fireEvent.change(mask, { target: { value: 'XXXX' } });
    fireEvent.change(redeemBy, { target: { value: '2001-01-01' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Generate Keys' }));

    expect(dialog.getAllByRole('alert')).toHaveLength(3);
    expect(problemOf(count)).toBe(LICENSE_COUNT_RANGE);
    expect(problemOf(mask)).toMatch(/needs at least 16 X characters/);
    expect(problemOf(redeemBy)).toBe(LICENSE_REDEEM_BY_PAST);
    for (const field of [count, mask, redeemBy]) {
      expect(field.getAttribute('aria-invalid')).toBe('true');
    }
    await waitFor(() => expect(document.activeElement).toBe(count));
    expect(api.sent('POST')).toEqual([]);

    fireEvent.change(count, { target: { value: '2' } });
    fireEvent.change(mask, { target: { value: 'XXXXX-XXXXX-XXXXX-XXXXX-XXXXX' } });
    fireEvent.change(redeemBy, { target: { value: '' } });
    const note = dialog.getByLabelText('Note (optional)');
    fireEvent.change(note, { target: { value: 'Order 7' } });
    api.refuseNextWith('POST', LICENSES_PATH, {
      message: 'planId: Invalid plan id',
      code: 'BAD_REQUEST',
      fields: [
        { field: 'planId', message: 'Invalid plan id' },
        { field: 'note', message: 'Must be one line' },
      ],
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Generate Keys' }));
    await waitFor(() => expect(problemOf(note)).toBe('Must be one line'));
    expect(note.getAttribute('aria-invalid')).toBe('true');
    const plan = dialog.getByRole('combobox', { name: /^Plan/ });
    expect(plan.getAttribute('aria-invalid')).toBe('true');
    expect(problemOf(plan)).toBe('Invalid plan id');
    await waitFor(() => expect(document.activeElement).toBe(plan));
    expect(screen.getByRole('dialog', { name: 'Generate Licence Keys' })).toBeTruthy();
  });

  it('chooses the first plan on offer when there are several, and generates keys of it', async () => {
    const team = { ...pro, id: uuid('1', 3), name: 'Team' };
    const api = stubLicensesApi([], [legacy, team, pro]);
    renderPanel();
    await screen.findByRole('heading', { name: 'No licence keys yet' });
    const dialog = await openGenerateDialog();
    // Archived plans are not on offer: the first one listed is Team.
    expect(dialog.getByRole('combobox', { name: /^Plan/ }).textContent).toContain('Team');
    fireEvent.click(dialog.getByRole('button', { name: 'Generate Keys' }));
    expect(await findToast('Licence keys generated successfully')).toBeTruthy();
    expect(api.sent('POST').map(({ body }) => (body as { planId: string }).planId)).toEqual([
      team.id,
    ]);
  });

  it('asks for a plan when none is on offer', async () => {
    const api = stubLicensesApi([], [legacy]);
    renderPanel();
    await screen.findByRole('heading', { name: 'No licence keys yet' });
    const dialog = await openGenerateDialog();
    expect(
      dialog.getByText('This application has no active plan. Create one in the Plans tab first.'),
    ).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Generate Keys' }));
    expect(dialog.getByRole('alert').textContent).toBe(PLAN_REQUIRED);
    expect(api.sent('POST')).toEqual([]);
  });

  it('generates keys, toasts, and shows them in full with Copy all and the downloads', async () => {
    const api = stubLicensesApi();
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderPanel();
    await screen.findByRole('heading', { name: 'No licence keys yet' });
    const dialog = await openGenerateDialog();
    fireEvent.change(dialog.getByLabelText(/^Number of keys/), { target: { value: ' 3 ' } });
    fireEvent.change(dialog.getByLabelText('Note (optional)'), { target: { value: ' Shop ' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Generate Keys' }));

    expect(await findToast('Licence keys generated successfully')).toBeTruthy();
    expect(api.sent('POST').map(({ body }) => body)).toEqual([
      {
        planId: pro.id,
        count: 3,
        mask: 'XXXXX-XXXXX-XXXXX-XXXXX-XXXXX',
        case: 'upper',
        note: 'Shop',
        redeemBy: null,
        emailTo: null,
      },
    ]);
    const keys = within(await screen.findByRole('dialog', { name: 'New Licence Keys' }));
    expect(keys.getByText(/3 keys of/)).toBeTruthy();
    expect((keys.getByLabelText('Keys') as HTMLTextAreaElement).value).toBe(
      'AAAAA-BBBBB-CCCCC-DDDDD-E0000\nAAAAA-BBBBB-CCCCC-DDDDD-E0001\nAAAAA-BBBBB-CCCCC-DDDDD-E0002\n',
    );
    fireEvent.click(keys.getByRole('button', { name: 'Copy all' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledOnce());
    expect(keys.getByRole('button', { name: 'Download .txt' })).toBeTruthy();
    expect(keys.getByRole('button', { name: 'Download .csv' })).toBeTruthy();
    fireEvent.click(keys.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByTestId(`license-row-${uuid('3', 1)}`)).toBeTruthy();
  });

  it('reveals a key, bans it with a reason, and deletes a key, each after its dialog', async () => {
    const api = stubLicensesApi([license(1), license(2)]);
    renderPanel();
    const first = within(await screen.findByTestId(`license-row-${license(1).id}`));
    fireEvent.click(first.getByRole('button', { name: 'Reveal key' }));
    expect(await first.findByText('FULL-KEY-0001')).toBeTruthy();
    fireEvent.click(first.getByRole('button', { name: 'Hide key' }));
    expect(first.queryByText('FULL-KEY-0001')).toBeNull();

    fireEvent.click(first.getByRole('button', { name: 'Ban key' }));
    const ban = within(await screen.findByRole('dialog', { name: 'Ban licence key?' }));
    fireEvent.click(ban.getByRole('button', { name: 'Ban Key' }));
    const reason = ban.getByLabelText(/^Reason/);
    expect(ban.getByRole('alert').textContent).toBe(LICENSE_BAN_REASON_REQUIRED);
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(problemOf(reason)).toBe(LICENSE_BAN_REASON_REQUIRED);
    await waitFor(() => expect(document.activeElement).toBe(reason));

    // The server's refusal of the reason is shown at it.
    fireEvent.change(reason, { target: { value: 'Leaked' } });
    expect(reason.hasAttribute('aria-invalid')).toBe(false);
    api.refuseNextWith('POST', `${LICENSES_PATH}/${license(1).id}/ban`, {
      message: 'reason: Must be one line',
      code: 'BAD_REQUEST',
      fields: [{ field: 'reason', message: 'Must be one line' }],
    });
    fireEvent.click(ban.getByRole('button', { name: 'Ban Key' }));
    await waitFor(() => expect(problemOf(reason)).toBe('Must be one line'));
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Ban licence key?' })).toBeTruthy();

    dismissToast();
    fireEvent.change(reason, { target: { value: 'Leaked' } });
    fireEvent.click(ban.getByRole('button', { name: 'Ban Key' }));
    expect(await findToast('Licence key banned successfully')).toBeTruthy();
    expect(api.sent('POST', `${LICENSES_PATH}/${license(1).id}/ban`).at(-1)?.body).toEqual({
      reason: 'Leaked',
    });
    expect(await first.findByText('Leaked')).toBeTruthy();

    dismissToast();
    const second = within(screen.getByTestId(`license-row-${license(2).id}`));
    fireEvent.click(second.getByRole('button', { name: 'Delete key' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete licence key?' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Delete Key' }));
    expect(await findToast('Licence key deleted successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId(`license-row-${license(2).id}`)).toBeNull());
  });
});
