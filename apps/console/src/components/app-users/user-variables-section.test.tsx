import {
  USER_VARIABLE_LIMIT_REACHED,
  VARIABLE_NAME_INVALID,
  variableLimits,
  type UserVariable,
} from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import {
  jsonResponse,
  neverAnswered,
  recordOwnerApi,
  sectionUser,
  sectionUserPath,
  stubOwnerApi,
} from '@/test/stub-owner-api.ts';
import { UserVariablesSection } from './user-variables-section.tsx';

const BASE = sectionUserPath('variables');

const variable = (name: string, overrides: Partial<UserVariable> = {}): UserVariable => ({
  name,
  value: `value of ${name}`,
  readOnly: false,
  createdAt: '2025-03-01T12:00:00.000Z',
  updatedAt: '2025-03-01T12:00:00.000Z',
  ...overrides,
});

/** A stand-in for the user-variables API, keeping them by name as the server does. */
function stubUserVariablesApi(initial: UserVariable[]) {
  let list = [...initial];
  return recordOwnerApi(({ method, path, body }) => {
    if (path === BASE && method === 'GET') return jsonResponse(200, list);
    const name = decodeURIComponent(path.slice(BASE.length + 1));
    if (method === 'PUT') {
      const written = variable(name, body as Partial<UserVariable>);
      list = [...list.filter((row) => row.name !== name), written].sort((a, b) =>
        a.name.localeCompare(b.name),
      );
      return jsonResponse(200, written);
    }
    if (method === 'DELETE' && list.some((row) => row.name === name)) {
      list = list.filter((row) => row.name !== name);
      return jsonResponse(200, { success: true, message: 'Variable deleted successfully' });
    }
    return undefined;
  });
}

const renderSection = () => renderSignedIn(<UserVariablesSection {...sectionUser} />);

describe('UserVariablesSection', { timeout: 30_000 }, () => {
  resetEachTest(stubResizeObserver);

  it('shows a skeleton while the variables load', () => {
    stubOwnerApi(() => neverAnswered());
    renderSection();
    expect(screen.getByRole('status', { name: 'Loading variables' })).toBeTruthy();
  });

  it('lists the user’s variables with their values and which are read-only', async () => {
    stubUserVariablesApi([variable('seats', { value: '5', readOnly: true }), variable('theme')]);
    renderSection();
    const seats = within(await screen.findByTestId('user-variable-seats'));
    expect(seats.getByText('5')).toBeTruthy();
    expect(seats.getByText('Read-only')).toBeTruthy();
    expect(within(screen.getByTestId('user-variable-theme')).queryByText('Read-only')).toBeNull();
  });

  it('adds a variable, checking the name first; Enter in the name saves it', async () => {
    const api = stubUserVariablesApi([]);
    renderSection();
    expect(await screen.findByText('No variables yet.')).toBeTruthy();
    const add = within(screen.getByRole('group', { name: 'Add a variable' }));
    fireEvent.change(add.getByLabelText('New variable name'), { target: { value: 'bad name' } });
    fireEvent.click(add.getByRole('button', { name: 'Add Variable' }));
    expect(add.getByRole('alert').textContent).toBe(VARIABLE_NAME_INVALID);
    expect(api.sent('PUT')).toEqual([]);

    fireEvent.change(add.getByLabelText('New variable name'), { target: { value: 'seats' } });
    fireEvent.change(add.getByLabelText(/^Value/), { target: { value: '5' } });
    fireEvent.click(add.getByRole('switch', { name: /Read-only/ }));
    fireEvent.keyDown(add.getByLabelText('New variable name'), { key: 'Enter' });
    expect(await findToast('Variable saved successfully')).toBeTruthy();
    expect(api.sent('PUT')).toEqual([
      { method: 'PUT', path: `${BASE}/seats`, body: { value: '5', readOnly: true } },
    ]);
    expect(await screen.findByTestId('user-variable-seats')).toBeTruthy();
    // The form is empty again for the next one.
    expect((add.getByLabelText('New variable name') as HTMLInputElement).value).toBe('');
  });

  it('edits the value and read-only of one, its name fixed', async () => {
    const api = stubUserVariablesApi([variable('seats', { value: '5', readOnly: true })]);
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit variable seats' }));
    const edit = within(screen.getByRole('group', { name: 'Edit variable seats' }));
    const name = edit.getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('seats');
    expect(name.readOnly).toBe(true);
    fireEvent.change(edit.getByLabelText(/^Value/), { target: { value: '10' } });
    fireEvent.click(edit.getByRole('switch', { name: /Read-only/ }));
    fireEvent.click(edit.getByRole('button', { name: 'Save Variable' }));
    expect(await findToast('Variable saved successfully')).toBeTruthy();
    expect(api.sent('PUT').map((request) => request.body)).toEqual([
      { value: '10', readOnly: false },
    ]);
  });

  it('shows the server’s reason when the user holds too many', async () => {
    const api = stubUserVariablesApi([variable('one')]);
    api.refuseNext('PUT', `${BASE}/two`, 409, USER_VARIABLE_LIMIT_REACHED);
    renderSection();
    await screen.findByTestId('user-variable-one');
    const add = within(screen.getByRole('group', { name: 'Add a variable' }));
    fireEvent.change(add.getByLabelText('New variable name'), { target: { value: 'two' } });
    fireEvent.click(add.getByRole('button', { name: 'Add Variable' }));
    expect(await findToast(USER_VARIABLE_LIMIT_REACHED)).toBeTruthy();
  });

  it('offers no new name once the user holds the most allowed', async () => {
    stubUserVariablesApi(
      Array.from({ length: variableLimits.userVariablesPerUser }, (_, index) =>
        variable(`v${String(index).padStart(3, '0')}`),
      ),
    );
    renderSection();
    expect(await screen.findByText(/holds the most variables allowed/)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Add a variable' })).toBeNull();
  });

  it('deletes only after a confirmation', async () => {
    const api = stubUserVariablesApi([variable('theme')]);
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete variable theme' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete variable?' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Delete Variable' }));
    expect(await findToast('Variable deleted successfully')).toBeTruthy();
    expect(api.sent('DELETE').map((request) => request.path)).toEqual([`${BASE}/theme`]);
    await waitFor(() => expect(screen.queryByTestId('user-variable-theme')).toBeNull());
  });
});
