import { REMINDERS_LINK_INVALID } from '@latchkey/contracts';
import { screen, waitFor } from '@testing-library/dom';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CONNECTION_FAILED, PortalApiError, type PortalApi } from './portal-api.ts';
import { startStopRemindersPage } from './stop-reminders-page.ts';
import {
  REMINDERS_LINK_INCOMPLETE,
  REMINDERS_PORTAL_UNKNOWN,
  REMINDERS_STOPPED,
  REMINDERS_STOPPED_NOTE,
  STOP_REMINDERS_TEXT,
  STOPPING_REMINDERS,
} from './stop-reminders-view.ts';
import { portalApiWith } from '@/test/portal-api-with.ts';
import { deferred } from '@/test/deferred.ts';
import { portalElementsForEachTest } from '@/test/portal-page-elements.ts';

const PAGE = '/portal/0123456789abcdef0123/unsubscribe';
const USER = '0b8f2a4e-5c1d-4e7a-9f3b-2d6c8e1a4b7f';
const TOKEN = '0123456789abcdef'.repeat(4);

function apiStopping(stopReminders: PortalApi['stopReminders']): PortalApi {
  return portalApiWith('stop page', { stopReminders });
}

const stopButton = () => screen.getByRole('button', { name: 'Stop Reminders' });

const elements = portalElementsForEachTest(`${PAGE}?user=${USER}&token=${TOKEN}`);

describe('the stop-reminders page', () => {
  it('takes the query out of the address bar and sends nothing until asked', async () => {
    const answer = deferred();
    const stopReminders = vi.fn(() => answer.promise);
    startStopRemindersPage(elements, apiStopping(stopReminders));
    expect(window.location.search).toBe('');
    expect(window.location.pathname).toBe(PAGE);
    expect(document.title).toBe('Stop expiry reminders');
    expect(screen.getByRole('region', { name: 'Stop expiry reminders?' })).toBeTruthy();
    expect(screen.getByText(STOP_REMINDERS_TEXT)).toBeTruthy();
    expect(elements.main.hasAttribute('aria-busy')).toBe(false);
    expect(stopReminders).not.toHaveBeenCalled();

    const user = userEvent.setup();
    await user.click(stopButton());
    expect(stopReminders).toHaveBeenCalledWith({ user: USER, token: TOKEN });
    expect(screen.getByText(STOPPING_REMINDERS)).toBeTruthy();
    expect(stopButton().getAttribute('aria-disabled')).toBe('true');
    // A second press while the first runs sends nothing more.
    await user.click(stopButton());
    expect(stopReminders).toHaveBeenCalledTimes(1);

    answer.resolve();
    expect((await screen.findByRole('status')).textContent).toBe(REMINDERS_STOPPED);
    expect(screen.getByText(REMINDERS_STOPPED_NOTE)).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Expiry reminders' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop Reminders' })).toBeNull();
    expect(screen.queryByText(STOPPING_REMINDERS)).toBeNull();
    // The pressed button is gone: focus is on the card's heading, not lost to the page.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Expiry reminders'));
  });

  it('says a link that is not one of ours stops nothing, with nothing to press again', async () => {
    startStopRemindersPage(
      elements,
      apiStopping(() =>
        Promise.reject(new PortalApiError(410, REMINDERS_LINK_INVALID, 'LINK_INVALID')),
      ),
    );
    await userEvent.setup().click(stopButton());
    expect((await screen.findByText(REMINDERS_LINK_INVALID)).getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('button', { name: 'Stop Reminders' })).toBeNull();
    expect(screen.queryByText(STOP_REMINDERS_TEXT)).toBeNull();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Stop expiry reminders?'));
  });

  it('says so for a portal that does not exist', async () => {
    startStopRemindersPage(
      elements,
      apiStopping(() => Promise.reject(new PortalApiError(404, 'Portal not found'))),
    );
    await userEvent.setup().click(stopButton());
    expect(await screen.findByText(REMINDERS_PORTAL_UNKNOWN)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop Reminders' })).toBeNull();
  });

  it('keeps the button after a lost connection, and sends the same link again', async () => {
    let isOnline = false;
    const stopReminders = vi.fn(() =>
      isOnline ? Promise.resolve() : Promise.reject(new PortalApiError(0, CONNECTION_FAILED)),
    );
    startStopRemindersPage(elements, apiStopping(stopReminders));
    const user = userEvent.setup();
    await user.click(stopButton());
    expect((await screen.findByText(CONNECTION_FAILED)).getAttribute('role')).toBe('alert');
    expect(stopButton().hasAttribute('aria-disabled')).toBe(false);
    expect(document.activeElement).toBe(stopButton());

    isOnline = true;
    await user.click(stopButton());
    expect(await screen.findByText(REMINDERS_STOPPED)).toBeTruthy();
    expect(screen.queryByText(CONNECTION_FAILED)).toBeNull();
    expect(stopReminders).toHaveBeenCalledTimes(2);
    expect(stopReminders).toHaveBeenLastCalledWith({ user: USER, token: TOKEN });
  });

  it('shows a server error with the wait when throttled, and the button stays', async () => {
    startStopRemindersPage(
      elements,
      apiStopping(() => Promise.reject(new PortalApiError(429, 'Too many requests', null, 120))),
    );
    await userEvent.setup().click(stopButton());
    expect(
      await screen.findByText('Too many requests. Please wait 2 minutes, then try again.'),
    ).toBeTruthy();
    expect(stopButton()).toBeTruthy();
  });

  it.each([
    ['no query', ''],
    ['no token', `?user=${USER}`],
    ['no user', `?token=${TOKEN}`],
    ['a cut token', `?user=${USER}&token=${TOKEN.slice(0, 40)}`],
    ['a user that is no id', `?user=42&token=${TOKEN}`],
  ])('says a link with %s is not complete, and offers nothing to send', (_case, query) => {
    window.history.replaceState(null, '', `${PAGE}${query}`);
    const stopReminders = vi.fn(() => Promise.resolve());
    startStopRemindersPage(elements, apiStopping(stopReminders));
    expect(screen.getByText(REMINDERS_LINK_INCOMPLETE).getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('button', { name: 'Stop Reminders' })).toBeNull();
    expect(window.location.search).toBe('');
    expect(stopReminders).not.toHaveBeenCalled();
  });
});
