import { MAIL_FEATURE_NEEDS_MAIL } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { createApplication, jsonResponse, stubOwnerApi } from '@/test/stub-owner-api.ts';
import {
  EXPIRY_REMINDERS_HINT,
  MAIL_FEATURES_NEED_MAIL,
  MailFeaturesCard,
  NEW_DEVICE_MAIL_HINT,
  REMINDER_DAYS_HINT,
} from './mail-features-card.tsx';

const orbit = createApplication({ id: 7, name: 'Orbit', hwidLockEnabled: true });

const runtimeConfig = (mailDelivery: 'smtp' | 'mailbox' | 'off') => ({
  firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-latchkey' },
  authEmulatorUrl: null,
  endUserPasswordMinLength: 8,
  mailDelivery,
});

const requireSwitch = () =>
  screen.getByRole('switch', { name: 'Require a verified e-mail address' });
const newDeviceSwitch = () => screen.getByRole('switch', { name: 'Mail a new device' });
const remindersSwitch = () => screen.getByRole('switch', { name: 'Mail expiry reminders' });
const daysField = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Days before' });
const saveButton = () => screen.getByRole('button', { name: 'Save Settings' });
const sentBodies = (sent: { method: string; body: unknown }[]) =>
  sent.filter(({ method }) => method === 'PUT').map(({ body }) => body);

/** /api/config, and PUT /api/applications/7 answering `answer(body)`. */
function stubApi(
  mailDelivery: 'smtp' | 'mailbox' | 'off',
  answer = (body: unknown) => jsonResponse(200, { ...orbit, ...(body as object) }),
) {
  return stubOwnerApi(({ method, url, body }) => {
    if (url.pathname === '/api/config') return jsonResponse(200, runtimeConfig(mailDelivery));
    if (method === 'PUT' && url.pathname === '/api/applications/7') return answer(body);
    return undefined;
  });
}

describe('MailFeaturesCard', () => {
  resetEachTest(stubResizeObserver);

  it('saves a new-device mail at once, and both switches go together', async () => {
    const sent = stubApi('smtp');
    renderSignedIn(<MailFeaturesCard application={orbit} />);
    expect(requireSwitch().getAttribute('aria-checked')).toBe('false');
    expect(requireSwitch().getAttribute('aria-describedby')).toBe(
      'mail-feature-requireVerifiedEmail-hint',
    );
    expect(screen.getByText(NEW_DEVICE_MAIL_HINT)).toBeTruthy();
    fireEvent.click(newDeviceSwitch());
    fireEvent.click(saveButton());
    expect(await findToast('Application updated successfully')).toBeTruthy();
    expect(sent.filter(({ method }) => method === 'PUT').map(({ body }) => body)).toEqual([
      { requireVerifiedEmail: false, newDeviceMail: true, expiryReminderDays: null },
    ]);
  });

  it('asks before requiring verified addresses, and sends nothing when cancelled', async () => {
    const sent = stubApi('smtp');
    renderSignedIn(<MailFeaturesCard application={orbit} />);
    fireEvent.click(requireSwitch());
    fireEvent.click(saveButton());
    const dialog = await screen.findByRole('alertdialog', { name: 'Require verified addresses?' });
    expect(dialog.textContent).toContain('Every user of Orbit');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(sent.some(({ method }) => method === 'PUT')).toBe(false);

    fireEvent.click(saveButton());
    fireEvent.click(
      within(
        await screen.findByRole('alertdialog', { name: 'Require verified addresses?' }),
      ).getByRole('button', { name: 'Require Verification' }),
    );
    expect(await findToast('Application updated successfully')).toBeTruthy();
    expect(sent.filter(({ method }) => method === 'PUT').map(({ body }) => body)).toEqual([
      { requireVerifiedEmail: true, newDeviceMail: false, expiryReminderDays: null },
    ]);
  });

  it('saves without asking once verified addresses are required already', async () => {
    const sent = stubApi('smtp');
    renderSignedIn(<MailFeaturesCard application={{ ...orbit, requireVerifiedEmail: true }} />);
    fireEvent.click(saveButton());
    expect(await findToast('Application updated successfully')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(sent.filter(({ method }) => method === 'PUT')).toHaveLength(1);
  });

  it('keeps a switch that is off from being turned on while the server sends no mail', async () => {
    stubApi('off');
    renderSignedIn(<MailFeaturesCard application={{ ...orbit, newDeviceMail: true }} />);
    expect(await screen.findByText(MAIL_FEATURES_NEED_MAIL)).toBeTruthy();
    expect((requireSwitch() as HTMLButtonElement).disabled).toBe(true);
    expect(requireSwitch().getAttribute('aria-describedby')).toContain('mail-features-off');
    // One that is on can still be switched off.
    expect((newDeviceSwitch() as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(newDeviceSwitch());
    expect(newDeviceSwitch().getAttribute('aria-checked')).toBe('false');
    expect((newDeviceSwitch() as HTMLButtonElement).disabled).toBe(false);
  });

  it('turns expiry reminders on a week ahead, and saves them with the switches', async () => {
    const sent = stubApi('smtp');
    renderSignedIn(<MailFeaturesCard application={orbit} />);
    expect(screen.getByText(EXPIRY_REMINDERS_HINT)).toBeTruthy();
    expect(remindersSwitch().getAttribute('aria-checked')).toBe('false');
    expect(screen.queryByRole('textbox', { name: 'Days before' })).toBeNull();

    fireEvent.click(remindersSwitch());
    expect(daysField().value).toBe('7');
    expect(daysField().getAttribute('aria-describedby')).toBe(
      'mail-feature-expiryReminderDays-hint',
    );
    expect(screen.getByText(REMINDER_DAYS_HINT)).toBeTruthy();
    fireEvent.click(saveButton());
    expect(await findToast('Application updated successfully')).toBeTruthy();
    expect(sentBodies(sent)).toEqual([
      { requireVerifiedEmail: false, newDeviceMail: false, expiryReminderDays: 7 },
    ]);
  });

  it('saves the days typed, and null once reminders are switched off', async () => {
    const sent = stubApi('smtp');
    renderSignedIn(<MailFeaturesCard application={{ ...orbit, expiryReminderDays: 14 }} />);
    expect(remindersSwitch().getAttribute('aria-checked')).toBe('true');
    expect(daysField().value).toBe('14');
    fireEvent.change(daysField(), { target: { value: ' 30 ' } });
    fireEvent.click(saveButton());
    expect(await findToast('Application updated successfully')).toBeTruthy();

    fireEvent.click(remindersSwitch());
    expect(screen.queryByRole('textbox', { name: 'Days before' })).toBeNull();
    fireEvent.click(saveButton());
    await waitFor(() => expect(sentBodies(sent)).toHaveLength(2));
    expect(
      sentBodies(sent).map((body) => (body as Record<string, unknown>).expiryReminderDays),
    ).toEqual([30, null]);
  });

  it('starts the days again from the saved ones when reminders are switched back on', () => {
    stubApi('smtp');
    renderSignedIn(<MailFeaturesCard application={{ ...orbit, expiryReminderDays: 3 }} />);
    fireEvent.change(daysField(), { target: { value: '45' } });
    fireEvent.click(remindersSwitch());
    fireEvent.click(remindersSwitch());
    expect(daysField().value).toBe('3');
  });

  it.each([
    ['0', 'Reminder days must be at least 1'],
    ['61', 'Reminder days must be at most 60'],
    ['2.5', 'Reminder days must be a whole number'],
    ['', 'Reminder days must be a whole number'],
    ['a week', 'Reminder days must be a whole number'],
  ])('refuses %j days at the field, and sends nothing', async (typed, message) => {
    const sent = stubApi('smtp');
    renderSignedIn(<MailFeaturesCard application={orbit} />);
    fireEvent.click(remindersSwitch());
    fireEvent.change(daysField(), { target: { value: typed } });
    fireEvent.click(saveButton());
    const problem = await screen.findByRole('alert');
    expect(problem.textContent).toBe(message);
    expect(daysField().getAttribute('aria-invalid')).toBe('true');
    expect(daysField().getAttribute('aria-describedby')).toBe(
      `mail-feature-expiryReminderDays-hint ${problem.id}`,
    );
    expect(problem.id).toBe('mail-feature-expiryReminderDays-error');
    expect(document.activeElement).toBe(daysField());
    expect(sent.some(({ method }) => method === 'PUT')).toBe(false);

    // Typing again clears it; a good number is then sent.
    fireEvent.change(daysField(), { target: { value: '60' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(daysField().hasAttribute('aria-invalid')).toBe(false);
    fireEvent.click(saveButton());
    expect(await findToast('Application updated successfully')).toBeTruthy();
    expect(sentBodies(sent)).toEqual([
      { requireVerifiedEmail: false, newDeviceMail: false, expiryReminderDays: 60 },
    ]);
  });

  it('checks the days before asking about verified addresses', async () => {
    stubApi('smtp');
    renderSignedIn(<MailFeaturesCard application={orbit} />);
    fireEvent.click(requireSwitch());
    fireEvent.click(remindersSwitch());
    fireEvent.change(daysField(), { target: { value: '90' } });
    fireEvent.click(saveButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Reminder days must be at most 60');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('keeps reminders from being switched on while the server sends no mail', async () => {
    stubApi('off');
    renderSignedIn(<MailFeaturesCard application={orbit} />);
    expect(await screen.findByText(MAIL_FEATURES_NEED_MAIL)).toBeTruthy();
    expect((remindersSwitch() as HTMLButtonElement).disabled).toBe(true);
    expect(remindersSwitch().getAttribute('aria-describedby')).toBe(
      'mail-feature-expiryReminders-hint mail-features-off',
    );
    expect(screen.queryByRole('textbox', { name: 'Days before' })).toBeNull();
  });

  it('lets reminders that are on change their days or stop while the server sends no mail', async () => {
    const sent = stubApi('off');
    renderSignedIn(<MailFeaturesCard application={{ ...orbit, expiryReminderDays: 7 }} />);
    expect(await screen.findByText(MAIL_FEATURES_NEED_MAIL)).toBeTruthy();
    expect((remindersSwitch() as HTMLButtonElement).disabled).toBe(false);
    fireEvent.change(daysField(), { target: { value: '10' } });
    fireEvent.click(saveButton());
    expect(await findToast('Application updated successfully')).toBeTruthy();
    fireEvent.click(remindersSwitch());
    expect((remindersSwitch() as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(saveButton());
    await waitFor(() => expect(sentBodies(sent)).toHaveLength(2));
    expect(
      sentBodies(sent).map((body) => (body as Record<string, unknown>).expiryReminderDays),
    ).toEqual([10, null]);
  });

  it("shows the server's refusal in the card", async () => {
    stubApi('smtp', () =>
      jsonResponse(409, { message: MAIL_FEATURE_NEEDS_MAIL, code: 'CONFLICT' }),
    );
    renderSignedIn(<MailFeaturesCard application={orbit} />);
    fireEvent.click(newDeviceSwitch());
    fireEvent.click(saveButton());
    expect((await screen.findByRole('alert')).textContent).toBe(MAIL_FEATURE_NEEDS_MAIL);
  });

  it('says when HWID lock is off, as no new-device mail is sent then', () => {
    stubApi('smtp');
    renderSignedIn(<MailFeaturesCard application={{ ...orbit, hwidLockEnabled: false }} />);
    expect(
      screen.getByText(/HWID lock is off for this application: none is sent until it is on\./),
    ).toBeTruthy();
  });
});
