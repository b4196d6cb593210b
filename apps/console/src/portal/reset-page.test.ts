import { screen } from '@testing-library/dom';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PortalApiError, type PortalApi } from './portal-api.ts';
import { PASSWORDS_DO_NOT_MATCH } from './password-card.ts';
import { startResetPage } from './reset-page.ts';
import { PASSWORD_RESET_DONE, RESET_LINK_INCOMPLETE } from './reset-view.ts';
import { portalApiWith } from '@/test/portal-api-with.ts';
import { portalElementsForEachTest } from '@/test/portal-page-elements.ts';

const TOKEN = 'T'.repeat(43);
const LINK_GONE =
  'This link has expired or has already been used. Ask for a new one from the program.';

function apiResetting(resetPassword: PortalApi['resetPassword']): PortalApi {
  return portalApiWith('reset page', { resetPassword });
}

const elements = portalElementsForEachTest(`/portal/0123456789abcdef0123/reset?token=${TOKEN}`);

const fillIn = async (password: string, confirmation: string) => {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm new password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
};

describe('the reset page', () => {
  it('takes the token out of the address bar and sends it with the new password', async () => {
    const resetPassword = vi.fn(async () => {});
    startResetPage(elements, apiResetting(resetPassword));
    expect(window.location.search).toBe('');
    expect(document.activeElement).toBe(screen.getByLabelText('New password'));
    await fillIn('a new passphrase', 'a new passphrase');
    expect(resetPassword).toHaveBeenCalledWith({ token: TOKEN, password: 'a new passphrase' });
    expect(await screen.findByText(PASSWORD_RESET_DONE)).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('compares the two passwords before sending anything', async () => {
    const resetPassword = vi.fn(async () => {});
    startResetPage(elements, apiResetting(resetPassword));
    await fillIn('a new passphrase', 'another one');
    expect(await screen.findByText(PASSWORDS_DO_NOT_MATCH)).toBeTruthy();
    expect(resetPassword).not.toHaveBeenCalled();
  });

  it('keeps the form for a refused password, and drops it for a link that is gone', async () => {
    let answer: PortalApiError = new PortalApiError(400, 'Password must be at least 8 characters');
    startResetPage(
      elements,
      apiResetting(() => Promise.reject(answer)),
    );
    await fillIn('short', 'short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByLabelText('New password')).toBeTruthy();

    answer = new PortalApiError(410, LINK_GONE, 'LINK_INVALID');
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('New password'));
    await user.clear(screen.getByLabelText('Confirm new password'));
    await fillIn('a long enough one', 'a long enough one');
    expect(await screen.findByText(LINK_GONE)).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('says so when the address has no token', () => {
    window.history.replaceState(null, '', '/portal/0123456789abcdef0123/reset');
    startResetPage(
      elements,
      apiResetting(() => Promise.resolve()),
    );
    expect(screen.getByText(RESET_LINK_INCOMPLETE)).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
  });
});
