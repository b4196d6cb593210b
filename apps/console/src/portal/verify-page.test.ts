import { screen, waitFor } from '@testing-library/dom';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CONNECTION_FAILED, PortalApiError, type PortalApi } from './portal-api.ts';
import { startVerifyPage } from './verify-page.ts';
import {
  CONFIRMING_EMAIL,
  EMAIL_CONFIRMED,
  LOG_IN_NOW,
  VERIFY_LINK_INCOMPLETE,
  VERIFY_PORTAL_UNKNOWN,
} from './verify-view.ts';
import { portalApiWith } from '@/test/portal-api-with.ts';
import { deferred } from '@/test/deferred.ts';
import { portalElementsForEachTest } from '@/test/portal-page-elements.ts';

const TOKEN = 'V'.repeat(43);
const LINK_GONE =
  'This link has expired, has already been used, or was for another address. Log in from the program to be sent a new one.';

function apiVerifying(verifyEmail: PortalApi['verifyEmail']): PortalApi {
  return portalApiWith('verify page', { verifyEmail });
}

const elements = portalElementsForEachTest(`/portal/0123456789abcdef0123/verify?token=${TOKEN}`);

describe('the verify page', () => {
  it('takes the token out of the address bar and sends it at once, with no click', async () => {
    const answer = deferred<{ username: string; email: string }>();
    const verifyEmail = vi.fn(() => answer.promise);
    startVerifyPage(elements, apiVerifying(verifyEmail));
    expect(window.location.search).toBe('');
    expect(window.location.pathname).toBe('/portal/0123456789abcdef0123/verify');
    expect(verifyEmail).toHaveBeenCalledWith({ token: TOKEN });
    expect(screen.getByText(CONFIRMING_EMAIL)).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Confirm your e-mail address' })).toBeTruthy();
    expect(elements.main.hasAttribute('aria-busy')).toBe(false);

    answer.resolve({ username: 'pilot', email: 'pilot@example.com' });
    expect((await screen.findByRole('status')).textContent).toBe(EMAIL_CONFIRMED);
    expect(screen.getByText('pilot')).toBeTruthy();
    expect(screen.getByText('pilot@example.com')).toBeTruthy();
    expect(screen.getByText(LOG_IN_NOW)).toBeTruthy();
    expect(screen.queryByText(CONFIRMING_EMAIL)).toBeNull();
    expect(verifyEmail).toHaveBeenCalledTimes(1);
  });

  it('says a spent or expired link is gone, with nothing to try again', async () => {
    startVerifyPage(
      elements,
      apiVerifying(() => Promise.reject(new PortalApiError(410, LINK_GONE, 'LINK_INVALID'))),
    );
    expect((await screen.findByText(LINK_GONE)).getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByText(CONFIRMING_EMAIL)).toBeNull();
  });

  it('says so for a portal that does not exist', async () => {
    startVerifyPage(
      elements,
      apiVerifying(() => Promise.reject(new PortalApiError(404, 'Portal not found'))),
    );
    expect(await screen.findByText(VERIFY_PORTAL_UNKNOWN)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('offers Try again after a lost connection, and sends the same token again', async () => {
    let answer: Promise<{ username: string; email: string }> = Promise.reject(
      new PortalApiError(0, CONNECTION_FAILED),
    );
    const verifyEmail = vi.fn(() => answer);
    startVerifyPage(elements, apiVerifying(verifyEmail));
    expect(await screen.findByText(CONNECTION_FAILED)).toBeTruthy();

    const retried = deferred<{ username: string; email: string }>();
    answer = retried.promise;
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText(CONFIRMING_EMAIL)).toBeTruthy();
    expect(screen.queryByText(CONNECTION_FAILED)).toBeNull();
    // A second press while the first runs sends nothing more.
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(verifyEmail).toHaveBeenCalledTimes(2);
    expect(verifyEmail).toHaveBeenLastCalledWith({ token: TOKEN });

    retried.resolve({ username: 'pilot', email: 'pilot@example.com' });
    expect(await screen.findByText(EMAIL_CONFIRMED)).toBeTruthy();
    // The pressed button is gone: focus is on the card's heading, not lost to the page.
    await waitFor(() =>
      expect(document.activeElement?.textContent).toBe('Confirm your e-mail address'),
    );
  });

  it('moves focus to a new Try again when trying again fails too', async () => {
    startVerifyPage(
      elements,
      apiVerifying(() => Promise.reject(new PortalApiError(503, 'The server is busy'))),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' })),
    );
    expect(screen.getByText('The server is busy')).toBeTruthy();
  });

  it('says so when the address has no token, and sends nothing', () => {
    window.history.replaceState(null, '', '/portal/0123456789abcdef0123/verify');
    const verifyEmail = vi.fn(() => Promise.resolve({ username: 'a', email: 'a@b.c' }));
    startVerifyPage(elements, apiVerifying(verifyEmail));
    expect(screen.getByText(VERIFY_LINK_INCOMPLETE)).toBeTruthy();
    expect(verifyEmail).not.toHaveBeenCalled();
    expect(document.title).toBe('Confirm your e-mail address');
  });
});
