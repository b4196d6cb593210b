import type { PortalAccount } from '@latchkey/contracts';
import { screen, waitFor, within } from '@testing-library/dom';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PortalApiError, type PortalApi } from './portal-api.ts';
import { PORTAL_NOT_AVAILABLE, SESSION_ENDED, startPortal } from './portal-app.ts';
import { PASSWORDS_DO_NOT_MATCH } from './password-card.ts';
import { portalElementsForEachTest } from '@/test/portal-page-elements.ts';

const account: PortalAccount = {
  portalName: 'Acme Portal',
  username: 'pilot',
  email: null,
  expiresAt: null,
  subscriptions: [],
  entitlements: [],
  meters: [],
  devices: [
    {
      id: '7b0e6d1e-4f7a-4a59-9d2b-1c9f0e2d3a4b',
      name: null,
      hwidPreview: 'A1B2C3D4',
      firstSeenAt: '2030-01-01T00:00:00.000Z',
      lastSeenAt: '2030-01-02T00:00:00.000Z',
      activatedOfflineAt: null,
    },
  ],
  deviceLimit: 2,
  selfServiceReset: false,
  nextResetAt: null,
};

function stubApi(overrides: Partial<PortalApi> = {}): PortalApi {
  const refuse = () => Promise.reject(new PortalApiError(500, 'not stubbed'));
  return {
    info: async () => ({
      name: 'Acme Portal',
      publicId: '0123456789abcdef0123',
      canResetPassword: true,
    }),
    account: () => Promise.reject(new PortalApiError(401, SESSION_ENDED)),
    signIn: refuse,
    signOut: refuse,
    releaseDevice: refuse,
    redeem: refuse,
    activateOffline: refuse,
    changePassword: refuse,
    resetPassword: refuse,
    forgotPassword: refuse,
    verifyEmail: refuse,
    stopReminders: refuse,
    ...overrides,
  };
}

const elements = portalElementsForEachTest();

describe('the portal page', () => {
  it('says the portal is not available when the API answers 404', async () => {
    await startPortal(
      elements,
      stubApi({ info: () => Promise.reject(new PortalApiError(404, 'Portal not found')) }),
    );
    expect(elements.title.textContent).toContain(PORTAL_NOT_AVAILABLE);
    expect(elements.main.hasAttribute('aria-busy')).toBe(false);
  });

  it('signs in, shows the account, and contacts-the-vendor when self-service is off', async () => {
    const signIn = vi.fn(async () => account);
    await startPortal(elements, stubApi({ signIn }));
    expect(elements.title.textContent).toContain('Acme Portal');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const signInCard = within(screen.getByRole('region', { name: 'Sign in' }));
    expect(signInCard.getByRole('alert').textContent).toContain('Please enter your username');
    expect(signIn).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Username'), 'pilot');
    await user.type(screen.getByLabelText('Password'), 'secret{Enter}');
    expect(signIn).toHaveBeenCalledWith({ username: 'pilot', password: 'secret' });
    const devices = await screen.findByRole('region', { name: 'Devices' });
    expect(within(devices).getByText('1 of 2 devices')).toBeTruthy();
    expect(within(devices).getByText('Unnamed device')).toBeTruthy();
    expect(within(devices).queryByRole('button')).toBeNull();
    expect(devices.textContent).toContain('contact the vendor');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your account' }));
    expect(screen.getByRole('region', { name: 'Subscriptions' }).textContent).toContain('None');
  });

  it('disables Release during the cooldown, says until when, and offers it again after', async () => {
    const nextResetAt = new Date(Date.now() + 400).toISOString();
    await startPortal(
      elements,
      stubApi({ account: async () => ({ ...account, selfServiceReset: true, nextResetAt }) }),
    );
    const devices = await screen.findByRole('region', { name: 'Devices' });
    const release = within(devices).getByRole('button', {
      name: 'Release Unnamed device (A1B2C3D4)',
    });
    expect((release as HTMLButtonElement).disabled).toBe(true);
    const rule = document.getElementById(release.getAttribute('aria-describedby')!);
    expect(rule?.textContent).toMatch(/^You can release another device after /);
    await waitFor(() =>
      expect(
        (
          within(devices).getByRole('button', {
            name: /^Release Unnamed device/,
          }) as HTMLButtonElement
        ).disabled,
      ).toBe(false),
    );
    expect(devices.textContent).toContain('You can release a device now.');
  });

  it("releases a device confirmed right after a cancel, before the cancel's close event", async () => {
    // jsdom has no modal dialogs: this stands in for the browser's, whose close event comes in
    // a task of its own after the dialog closed, while input is handled first.
    const closeEvents: (() => void)[] = [];
    const prototype = HTMLDialogElement.prototype;
    const originals = { showModal: prototype.showModal, close: prototype.close };
    prototype.showModal = function (this: HTMLDialogElement) {
      this.open = true;
    };
    prototype.close = function (this: HTMLDialogElement, returnValue?: string) {
      this.open = false;
      if (returnValue !== undefined) this.returnValue = returnValue;
      closeEvents.push(() => this.dispatchEvent(new Event('close')));
    };
    try {
      const released = { ...account, selfServiceReset: true, devices: [] };
      const releaseDevice = vi.fn(async () => released);
      await startPortal(
        elements,
        stubApi({ account: async () => ({ ...account, selfServiceReset: true }), releaseDevice }),
      );
      const devices = await screen.findByRole('region', { name: 'Devices' });
      const release = within(devices).getByRole('button', { name: /^Release Unnamed device/ });
      const dialog = devices.querySelector('dialog')!;
      release.click();
      dialog.close('cancel'); // Escape
      release.click(); // Enter on Release again, before the cancel's close event
      closeEvents.shift()!();
      expect(dialog.open).toBe(true);
      dialog.close('release');
      closeEvents.shift()!();
      await waitFor(() => expect(releaseDevice).toHaveBeenCalledTimes(1));
      expect(await within(devices).findByRole('status')).toHaveProperty(
        'textContent',
        'Unnamed device has been released: its seat is free.',
      );
    } finally {
      Object.assign(prototype, originals);
    }
  });

  it('checks the new passwords match before sending, then goes back to sign-in on a 401', async () => {
    const changePassword = vi.fn(() => Promise.reject(new PortalApiError(401, SESSION_ENDED)));
    await startPortal(elements, stubApi({ account: async () => account, changePassword }));
    const form = screen.getByRole('region', { name: 'Change password' });
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText('Current password'), 'old-secret');
    await user.type(within(form).getByLabelText('New password'), 'new-secret-1');
    await user.type(within(form).getByLabelText('Confirm new password'), 'new-secret-2{Enter}');
    expect(within(form).getByRole('alert').textContent).toContain(PASSWORDS_DO_NOT_MATCH);
    expect(within(form).getByLabelText('Confirm new password').getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(changePassword).not.toHaveBeenCalled();

    await user.clear(within(form).getByLabelText('Confirm new password'));
    await user.type(within(form).getByLabelText('Confirm new password'), 'new-secret-1{Enter}');
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'Sign in' })).getByRole('alert').textContent,
      ).toContain(SESSION_ENDED),
    );
    expect(changePassword).toHaveBeenCalledWith({
      currentPassword: 'old-secret',
      newPassword: 'new-secret-1',
    });
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
  });

  it('offers "Forgot password?" when the server mails, sending an address or a username', async () => {
    const answer = { message: 'If an account matches, a link has been sent.' };
    const forgotPassword = vi.fn(async () => answer);
    await startPortal(elements, stubApi({ forgotPassword }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Username or e-mail address'));
    await user.type(
      screen.getByLabelText('Username or e-mail address'),
      ' pilot@example.com {Enter}',
    );
    expect(await screen.findByText(answer.message)).toBeTruthy();
    expect(forgotPassword).toHaveBeenCalledWith({ email: 'pilot@example.com' });
    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await user.type(screen.getByLabelText('Username or e-mail address'), 'pilot{Enter}');
    await waitFor(() => expect(forgotPassword).toHaveBeenLastCalledWith({ username: 'pilot' }));
  });

  it('does not offer "Forgot password?" when the server sends no mail', async () => {
    await startPortal(
      elements,
      stubApi({
        info: async () => ({
          name: 'Acme Portal',
          publicId: '0123456789abcdef0123',
          canResetPassword: false,
        }),
      }),
    );
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Forgot password?' })).toBeNull();
  });
});
