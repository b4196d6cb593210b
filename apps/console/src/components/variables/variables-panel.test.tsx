import {
  VARIABLE_NAME_INVALID,
  VARIABLE_NAME_TAKEN,
  type ApplicationVariable,
} from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { openDialog } from '@/test/open-dialog.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { neverAnswered, orbit, stubCollectionApi, stubOwnerApi } from '@/test/stub-owner-api.ts';
import { VariablesPanel } from './variables-panel.tsx';

const VARIABLES_PATH = '/api/applications/7/variables';

function createVariable(
  index: number,
  overrides: Partial<ApplicationVariable> = {},
): ApplicationVariable {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    name: `variable_${index}`,
    value: `value ${index}`,
    requiresSession: true,
    createdAt: '2025-03-01T12:00:00.000Z',
    updatedAt: '2025-03-01T12:00:00.000Z',
    ...overrides,
  };
}

/**
 * A stand-in for the variables API of packages/contracts/src/variables.ts, holding them in
 * memory (and searching them as the server does) so the list refreshes after each change.
 */
function stubVariablesApi(initial: ApplicationVariable[] = []) {
  return stubCollectionApi({
    path: VARIABLES_PATH,
    initial,
    create: createVariable,
    list: (variables, url) => {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      return variables.filter(({ name, value }) =>
        `${name}\n${value}`.toLowerCase().includes(search),
      );
    },
    deletedMessage: 'Variable deleted successfully',
  });
}

const renderPanel = () => renderSignedIn(<VariablesPanel application={orbit} />);
const openCreateDialog = () => openDialog('Create Variable');

describe('VariablesPanel', { timeout: 30_000 }, () => {
  resetEachTest(stubResizeObserver);

  it('shows a skeleton while the variables load', () => {
    stubOwnerApi(() => neverAnswered());
    renderPanel();
    expect(screen.getByRole('status', { name: 'Loading variables' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('invites the first variable when there is none', async () => {
    stubVariablesApi();
    renderPanel();
    const heading = await screen.findByRole('heading', { name: 'No variables yet' });
    expect(
      within(heading.parentElement!).getByRole('button', { name: 'Create Variable' }),
    ).toBeTruthy();
  });

  it('lists each variable with a preview of its value and who may read it', async () => {
    stubVariablesApi([
      createVariable(1, { name: 'kill_switch', value: 'off', requiresSession: false }),
      createVariable(2, {
        name: 'mirrors',
        value: 'https://eu.example.com\nhttps://us.example.com',
      }),
    ]);
    renderPanel();
    const killSwitch = within(await screen.findByTestId('variable-row-kill_switch'));
    expect(killSwitch.getByText('off')).toBeTruthy();
    expect(killSwitch.getByText('Public')).toBeTruthy();
    const mirrors = within(screen.getByTestId('variable-row-mirrors'));
    expect(mirrors.getByText('https://eu.example.com…')).toBeTruthy();
    expect(mirrors.getByText('Requires session')).toBeTruthy();
  });

  it('searches on the server once typing pauses, and says when nothing matches', async () => {
    const api = stubVariablesApi([
      createVariable(1, { name: 'kill_switch' }),
      createVariable(2, { name: 'mirror' }),
    ]);
    renderPanel();
    await screen.findByTestId('variable-row-kill_switch');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search variables' }), {
      target: { value: 'MIRR' },
    });
    await waitFor(() => expect(screen.queryByTestId('variable-row-kill_switch')).toBeNull());
    expect(screen.getByTestId('variable-row-mirror')).toBeTruthy();
    expect(api.sent('GET').at(-1)?.path).toBe(`${VARIABLES_PATH}?search=MIRR`);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search variables' }), {
      target: { value: 'zzz' },
    });
    expect(await screen.findByRole('heading', { name: 'No matching variables' })).toBeTruthy();
  });

  it('checks the name before sending, then creates with Requires session on by default', async () => {
    const api = stubVariablesApi();
    renderPanel();
    await screen.findByRole('heading', { name: 'No variables yet' });
    const dialog = await openCreateDialog();
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'has space' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Variable' }));
    expect(dialog.getByRole('alert').textContent).toBe(VARIABLE_NAME_INVALID);
    expect(api.sent('POST')).toEqual([]);

    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'motd' } });
    fireEvent.change(dialog.getByLabelText(/^Value/), { target: { value: 'Hello\nworld' } });
    expect(dialog.getByText('11 B of 64 KB')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Create Variable' }));
    expect(await findToast('Variable created successfully')).toBeTruthy();
    expect(api.sent('POST').map((request) => request.body)).toEqual([
      { name: 'motd', value: 'Hello\nworld', requiresSession: true },
    ]);
    expect(await screen.findByTestId('variable-row-motd')).toBeTruthy();
  });

  it('keeps the dialog open with the server’s reason when the name is taken', async () => {
    const api = stubVariablesApi([createVariable(1, { name: 'taken' })]);
    api.refuseNext('POST', VARIABLES_PATH, 409, VARIABLE_NAME_TAKEN);
    renderPanel();
    await screen.findByTestId('variable-row-taken');
    const dialog = await openCreateDialog();
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'taken' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Variable' }));
    expect(await findToast(VARIABLE_NAME_TAKEN)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Create Variable' })).toBeTruthy();
  });

  it('edits from the saved values, turning Requires session off', async () => {
    const variable = createVariable(1, { name: 'flag', value: 'a' });
    const api = stubVariablesApi([variable]);
    renderPanel();
    const row = within(await screen.findByTestId('variable-row-flag'));
    fireEvent.click(row.getByRole('button', { name: 'Edit variable flag' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Variable' }));
    expect((dialog.getByLabelText(/^Value/) as HTMLTextAreaElement).value).toBe('a');
    fireEvent.change(dialog.getByLabelText(/^Value/), { target: { value: 'b' } });
    fireEvent.click(dialog.getByRole('switch', { name: 'Requires session' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Variable updated successfully')).toBeTruthy();
    expect(api.sent('PUT')).toEqual([
      {
        method: 'PUT',
        path: `${VARIABLES_PATH}/${variable.id}`,
        body: { name: 'flag', value: 'b', requiresSession: false },
      },
    ]);
  });

  it('deletes only after a confirmation', async () => {
    const variable = createVariable(1, { name: 'old' });
    const api = stubVariablesApi([variable]);
    renderPanel();
    const row = within(await screen.findByTestId('variable-row-old'));
    fireEvent.click(row.getByRole('button', { name: 'Delete variable old' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete variable?' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(api.sent('DELETE')).toEqual([]);
    fireEvent.click(row.getByRole('button', { name: 'Delete variable old' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Delete variable?' })).getByRole(
        'button',
        { name: 'Delete Variable' },
      ),
    );
    expect(await findToast('Variable deleted successfully')).toBeTruthy();
    expect(api.sent('DELETE').map((request) => request.path)).toEqual([
      `${VARIABLES_PATH}/${variable.id}`,
    ]);
    expect(await screen.findByRole('heading', { name: 'No variables yet' })).toBeTruthy();
  });
});
