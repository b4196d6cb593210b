import {
  BLACKLIST_DUPLICATE,
  BLACKLIST_INVALID_EMAIL,
  BLACKLIST_INVALID_IP,
  BLACKLIST_TYPE_AND_VALUE_REQUIRED,
  type BlacklistEntry,
} from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver, stubScrollIntoView } from '@/test/jsdom-stubs.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { jsonResponse, stubRefusingOwnerApi } from '@/test/stub-owner-api.ts';
import { AddBlacklistEntryDialog } from './add-blacklist-entry-dialog.tsx';

/** POST /api/blacklist makes the entry asked for; the owner has no applications. */
function stubBlacklistApi() {
  return stubRefusingOwnerApi(({ method, url, body }) => {
    if (url.pathname === '/api/applications') return jsonResponse(200, []);
    if (method === 'POST' && url.pathname === '/api/blacklist') {
      const request = body as Pick<BlacklistEntry, 'type' | 'value'>;
      return jsonResponse(201, {
        id: 1,
        ...request,
        reason: null,
        applicationId: null,
        application: null,
        isActive: true,
        createdAt: '2025-03-14T12:00:00.000Z',
      } satisfies BlacklistEntry);
    }
    return undefined;
  });
}

async function openDialog() {
  renderSignedIn(<AddBlacklistEntryDialog />);
  fireEvent.click(screen.getByRole('button', { name: 'Add Blacklist Entry' }));
  return within(await screen.findByRole('dialog', { name: 'Add Blacklist Entry' }));
}

/** Chooses a type, as done once the list has closed and handed the focus back to it. */
async function chooseType(dialog: ReturnType<typeof within>, type: string) {
  const trigger = dialog.getByRole('combobox', { name: /^Type/ });
  fireEvent.click(trigger);
  fireEvent.click(await screen.findByRole('option', { name: type }));
  await waitFor(() => expect(document.activeElement).toBe(trigger));
}

/** The words said below a field: its problem, found by the id the field names it by. */
const problemOf = (control: HTMLElement) =>
  document.getElementById(`${control.id}-problem`)?.textContent ?? null;

const posts = (sent: { method: string; path: string }[]) =>
  sent.filter(({ method, path }) => method === 'POST' && path === '/api/blacklist');

describe('AddBlacklistEntryDialog: problems at their fields', { timeout: 30_000 }, () => {
  resetEachTest(stubResizeObserver, stubScrollIntoView);

  it('marks a missing type and a blank value each at its field, the type focused', async () => {
    const { sent } = stubBlacklistApi();
    const dialog = await openDialog();
    const type = dialog.getByRole('combobox', { name: /^Type/ });
    const value = dialog.getByRole('textbox', { name: /^Value/ });
    fireEvent.click(dialog.getByRole('button', { name: 'Add Entry' }));

    expect(type.getAttribute('aria-invalid')).toBe('true');
    expect(problemOf(type)).toBe(BLACKLIST_TYPE_AND_VALUE_REQUIRED);
    expect(type.getAttribute('aria-describedby')).toBe(`${type.id}-problem`);
    expect(value.getAttribute('aria-invalid')).toBe('true');
    expect(problemOf(value)).toBe(BLACKLIST_TYPE_AND_VALUE_REQUIRED);
    await waitFor(() => expect(document.activeElement).toBe(type));

    // Choosing a type forgets its problem; the blank value's stays.
    await chooseType(dialog, 'Username');
    expect(type.hasAttribute('aria-invalid')).toBe(false);
    expect(problemOf(type)).toBeNull();
    expect(problemOf(value)).toBe(BLACKLIST_TYPE_AND_VALUE_REQUIRED);
    expect(posts(sent)).toEqual([]);
  });

  it("says a value that is not an address, or not an e-mail, at the value in the contract's words", async () => {
    const { sent } = stubBlacklistApi();
    const dialog = await openDialog();
    const value = dialog.getByRole('textbox', { name: /^Value/ });
    await chooseType(dialog, 'IP Address');
    fireEvent.change(value, { target: { value: '10.0.0.0/33' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add Entry' }));
    expect(dialog.getByRole('alert').textContent).toBe(BLACKLIST_INVALID_IP);
    expect(problemOf(value)).toBe(BLACKLIST_INVALID_IP);
    expect(value.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(value));

    await chooseType(dialog, 'Email');
    fireEvent.change(value, { target: { value: 'nobody' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add Entry' }));
    expect(problemOf(value)).toBe(BLACKLIST_INVALID_EMAIL);
    expect(posts(sent)).toEqual([]);
  });

  it("places the server's refusal at the field it names; one naming none stays a toast", async () => {
    const { sent, refuseNext } = stubBlacklistApi();
    const dialog = await openDialog();
    const value = dialog.getByRole('textbox', { name: /^Value/ });
    const reason = dialog.getByRole('textbox', { name: /^Reason/ });
    await chooseType(dialog, 'Username');
    fireEvent.change(value, { target: { value: 'mallory' } });
    fireEvent.change(reason, { target: { value: 'Spam' } });
    refuseNext(
      'POST',
      '/api/blacklist',
      jsonResponse(400, {
        message: 'reason: Must be one line',
        code: 'BAD_REQUEST',
        fields: [{ field: 'reason', message: 'Must be one line' }],
      }),
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Add Entry' }));
    await waitFor(() => expect(problemOf(reason)).toBe('Must be one line'));
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(reason));

    fireEvent.change(reason, { target: { value: 'Spam again' } });
    refuseNext(
      'POST',
      '/api/blacklist',
      jsonResponse(409, { message: BLACKLIST_DUPLICATE, code: 'CONFLICT' }),
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Add Entry' }));
    expect(await findToast(BLACKLIST_DUPLICATE)).toBeTruthy();
    expect(dialog.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Add Blacklist Entry' })).toBeTruthy();
    expect(posts(sent)).toHaveLength(2);
  });
});
