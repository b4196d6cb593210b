import { screen, waitFor, within } from '@testing-library/dom';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { portalApiWith } from '@/test/portal-api-with.ts';
import { createActivationCard } from './activation-card.ts';
import { errorText, PortalApiError, type PortalApi } from './portal-api.ts';

const REQUEST = 'LKA1.eyJhcHAiOiJhYiJ9.0123456789abcdef';
const LICENSE = 'LK1.eyJpZCI6IngifQ.c2lnbmF0dXJl';

function mount(activateOffline: PortalApi['activateOffline'], isSignedIn = false) {
  const onActivated = vi.fn();
  const card = createActivationCard({
    api: portalApiWith('activation card', { activateOffline }),
    isSignedIn,
    failureText: errorText,
    onActivated,
  });
  document.body.append(card);
  return { card: within(card), onActivated };
}

describe('the portal: activating a computer offline', () => {
  afterEach(() => document.body.replaceChildren());

  it('exchanges a pasted request for a licence to copy, with until when it lasts', async () => {
    const activateOffline = vi.fn(async () => ({
      license: LICENSE,
      validUntil: '2030-03-01T12:00:00.000Z',
      username: 'key-1234',
    }));
    const { card, onActivated } = mount(activateOffline);
    const user = userEvent.setup();
    expect(screen.getByRole('heading', { name: 'Activate a computer offline' })).toBeTruthy();
    expect(card.queryByLabelText('Offline licence')).toBeNull();

    await user.click(card.getByRole('button', { name: 'Get Licence' }));
    expect(card.getByRole('alert').textContent).toBe('Please paste the activation request');
    expect(activateOffline).not.toHaveBeenCalled();

    await user.click(card.getByLabelText('Activation request'));
    await user.paste(REQUEST);
    await user.click(card.getByRole('button', { name: 'Get Licence' }));
    await waitFor(() => expect(card.getByLabelText('Offline licence')).toBeTruthy());
    expect(activateOffline).toHaveBeenCalledWith({ request: REQUEST });
    expect((card.getByLabelText('Offline licence') as HTMLTextAreaElement).value).toBe(LICENSE);
    expect(card.getByText(/^Valid until /)).toBeTruthy();
    expect(card.getAllByRole('status')[0]?.textContent).toBe(
      'Licence issued for key-1234: paste it into the program on that computer.',
    );
    expect(onActivated).toHaveBeenCalledOnce();
    expect(card.getByRole('button', { name: 'Copy Licence' })).toBeTruthy();
  });

  it('says why a request is refused, in the server’s words, beside the request', async () => {
    const activateOffline = vi.fn(() =>
      Promise.reject(new PortalApiError(400, 'This activation request names another account')),
    );
    const { card, onActivated } = mount(activateOffline, true);
    const user = userEvent.setup();
    await user.type(card.getByLabelText('Activation request'), 'LKA1.x.y');
    await user.click(card.getByRole('button', { name: 'Get Licence' }));
    await waitFor(() =>
      expect(card.getByRole('alert').textContent).toContain(
        'This activation request names another account',
      ),
    );
    expect(card.getByLabelText('Activation request').getAttribute('aria-invalid')).toBe('true');
    expect(card.queryByLabelText('Offline licence')).toBeNull();
    expect(onActivated).not.toHaveBeenCalled();
  });
});
