import {
  applicationLimits,
  defaultApplicationMessages,
  deviceLimits,
  ENTITLEMENT_CODE_INVALID,
  offlineLicenseLimits,
} from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { createApplication, jsonResponse } from '@/test/stub-owner-api.ts';
import { ApplicationSettingsDialog } from './application-settings-dialog.tsx';

const application = createApplication({ name: 'Acme Desktop', maxSessionsPerUser: 3 });

/**
 * The owner API's PUT answers with the application as saved, or as `answer` says; the bodies
 * sent are returned.
 */
function stubUpdate(
  answer: (body: Record<string, unknown>) => Response = (body) =>
    jsonResponse(200, { ...application, ...body }),
) {
  const sentBodies: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      if (init?.method !== 'PUT') return jsonResponse(200, application);
      sentBodies.push(body);
      return answer(body);
    }),
  );
  return sentBodies;
}

// Radix's Switch measures itself; jsdom has no ResizeObserver, and sizes are not under test.
beforeEach(() => stubResizeObserver());
afterEach(() => vi.unstubAllGlobals());

async function openSettings() {
  renderWithProviders(<ApplicationSettingsDialog application={application} />, {
    auth: signedInAuth(),
  });
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
  return (await screen.findByLabelText('Sessions per User')) as HTMLInputElement;
}

describe('ApplicationSettingsDialog: sessions per user', () => {
  it('shows the saved limit with its hint, and saves a new one as a number', async () => {
    const sentBodies = stubUpdate();
    const field = await openSettings();
    expect(field.value).toBe('3');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /ends the oldest.*empty for no limit/,
    );

    fireEvent.change(field, { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));
    await waitFor(() => expect(sentBodies).toHaveLength(1));
    expect(sentBodies[0]).toMatchObject({ maxSessionsPerUser: 5, name: 'Acme Desktop' });
  });

  it('saves an emptied field as no limit (null)', async () => {
    const sentBodies = stubUpdate();
    const field = await openSettings();
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));
    await waitFor(() => expect(sentBodies).toHaveLength(1));
    expect(sentBodies[0]).toHaveProperty('maxSessionsPerUser', null);
  });
});

describe('ApplicationSettingsDialog: licence required', () => {
  it('shows the saved setting with its hint, and sends the switched value', async () => {
    const sentBodies = stubUpdate();
    await openSettings();
    const toggle = screen.getByRole('switch', { name: 'Require a licence key' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(document.getElementById(toggle.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /needs a valid key.*active subscription/,
    );

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));
    await waitFor(() => expect(sentBodies).toHaveLength(1));
    expect(sentBodies[0]).toMatchObject({ licenseRequired: true, hwidLockEnabled: false });
  });
});

describe('ApplicationSettingsDialog: devices', () => {
  const devicesGroup = () => within(screen.getByRole('group', { name: 'Devices' }));

  it('shows the saved device settings with their hints, and sends the new ones as numbers', async () => {
    const sentBodies = stubUpdate();
    await openSettings();
    const group = devicesGroup();
    const limit = group.getByLabelText('Device limit') as HTMLInputElement;
    const cooldown = group.getByLabelText('Reset cooldown (hours)') as HTMLInputElement;
    const inactive = group.getByLabelText(
      'Release inactive devices after (days)',
    ) as HTMLInputElement;
    const selfService = group.getByRole('switch', { name: 'Self-service reset' });
    // The contract's defaults: one device, no self-service, a week's cooldown, never released.
    expect(limit.value).toBe('1');
    expect(selfService.getAttribute('aria-checked')).toBe('false');
    expect(cooldown.value).toBe('168');
    expect(inactive.value).toBe('');
    expect(document.getElementById(limit.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Devices each user may bind under HWID lock; a plan can raise it.',
    );
    expect(
      document.getElementById(cooldown.getAttribute('aria-describedby')!)?.textContent,
    ).toMatch(/0 means no cooldown; 168 is 7 days/);
    expect(
      document.getElementById(selfService.getAttribute('aria-describedby')!)?.textContent,
    ).toMatch(/^Let users release their own devices/);

    fireEvent.change(limit, { target: { value: ' 3 ' } });
    fireEvent.click(selfService);
    fireEvent.change(cooldown, { target: { value: '0' } });
    fireEvent.change(inactive, { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));
    await waitFor(() => expect(sentBodies).toHaveLength(1));
    expect(sentBodies[0]).toMatchObject({
      maxDevices: 3,
      selfServiceReset: true,
      resetCooldownHours: 0,
      releaseInactiveAfterDays: 30,
      name: 'Acme Desktop',
    });
  });

  it('sends an emptied inactivity release as never (null)', async () => {
    const sentBodies = stubUpdate();
    renderWithProviders(
      <ApplicationSettingsDialog application={{ ...application, releaseInactiveAfterDays: 90 }} />,
      { auth: signedInAuth() },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const inactive = (await screen.findByLabelText(
      'Release inactive devices after (days)',
    )) as HTMLInputElement;
    expect(inactive.value).toBe('90');
    fireEvent.change(inactive, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));
    await waitFor(() => expect(sentBodies).toHaveLength(1));
    expect(sentBodies[0]).toHaveProperty('releaseInactiveAfterDays', null);
  });

  it("refuses values out of range in the contract's words, beside the field, and sends nothing", async () => {
    const sentBodies = stubUpdate();
    await openSettings();
    const group = devicesGroup();
    const limit = group.getByLabelText('Device limit');
    const submit = () =>
      fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));

    fireEvent.change(limit, { target: { value: '101' } });
    submit();
    expect(group.getByRole('alert').textContent).toBe(
      `Device limit must be at most ${deviceLimits.maxDevices}`,
    );
    expect(limit.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(limit, { target: { value: '0' } });
    submit();
    expect(group.getByRole('alert').textContent).toBe('Device limit must be at least 1');

    fireEvent.change(limit, { target: { value: '2' } });
    fireEvent.change(group.getByLabelText('Reset cooldown (hours)'), {
      target: { value: '1.5' },
    });
    submit();
    expect(group.getByRole('alert').textContent).toBe(
      'Reset cooldown must be a whole number of hours',
    );
    expect(limit.getAttribute('aria-invalid')).toBeNull();
    expect(group.getByLabelText('Reset cooldown (hours)').getAttribute('aria-invalid')).toBe(
      'true',
    );

    // Every field's problem at once, each beside its own field.
    fireEvent.change(group.getByLabelText('Reset cooldown (hours)'), { target: { value: '' } });
    fireEvent.change(group.getByLabelText('Release inactive devices after (days)'), {
      target: { value: '0' },
    });
    submit();
    expect(group.getAllByRole('alert').map(({ textContent }) => textContent)).toEqual([
      'Inactivity release must be at least 1 day (leave it empty for never)',
      'Reset cooldown must be a whole number of hours',
    ]);
    fireEvent.change(group.getByLabelText('Reset cooldown (hours)'), { target: { value: '24' } });
    expect(group.getByRole('alert').textContent).toBe(
      'Inactivity release must be at least 1 day (leave it empty for never)',
    );
    expect(sentBodies).toEqual([]);
  });
});

describe('ApplicationSettingsDialog: offline licences', () => {
  const offlineGroup = () => within(screen.getByRole('group', { name: 'Offline licences' }));

  it('shows the saved maximum with its hint, and sends a new one as a number', async () => {
    const sentBodies = stubUpdate();
    await openSettings();
    const days = offlineGroup().getByLabelText('Max offline days') as HTMLInputElement;
    expect(days.value).toBe(String(offlineLicenseLimits.defaultMaxOfflineDays));
    expect(document.getElementById(days.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /1–365 days.*cannot be recalled/,
    );
    fireEvent.change(days, { target: { value: ' 7 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));
    await waitFor(() => expect(sentBodies).toHaveLength(1));
    expect(sentBodies[0]).toMatchObject({ maxOfflineDays: 7, name: 'Acme Desktop' });
  });

  it("refuses a maximum out of range in the contract's words, beside the field, and sends nothing", async () => {
    const sentBodies = stubUpdate();
    await openSettings();
    const group = offlineGroup();
    const days = group.getByLabelText('Max offline days');
    const submit = () =>
      fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));
    for (const [typed, message] of [
      ['366', `Offline days must be at most ${offlineLicenseLimits.maxOfflineDays}`],
      ['0', 'Offline days must be at least 1'],
      ['2.5', 'Offline days must be a whole number'],
      ['', 'Offline days must be a whole number'],
    ] as const) {
      fireEvent.change(days, { target: { value: typed } });
      submit();
      expect(group.getByRole('alert').textContent, typed).toBe(message);
      expect(days.getAttribute('aria-invalid')).toBe('true');
    }
    expect(sentBodies).toEqual([]);
  });
});

describe('ApplicationSettingsDialog: trial', () => {
  const trialGroup = () => within(screen.getByRole('group', { name: 'Trial' }));

  it('offers no trial until days are typed, then sends them with the entitlements', async () => {
    const sentBodies = stubUpdate();
    await openSettings();
    const group = trialGroup();
    const days = group.getByLabelText('Trial days') as HTMLInputElement;
    const entitlements = group.getByLabelText('Trial entitlements') as HTMLInputElement;
    expect(days.value).toBe('');
    expect(days.placeholder).toBe('No trial');
    expect(entitlements.value).toBe('');
    fireEvent.change(days, { target: { value: ' 14 ' } });
    fireEvent.change(entitlements, { target: { value: 'PRO, EXPORT_PDF' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));
    await waitFor(() => expect(sentBodies).toHaveLength(1));
    expect(sentBodies[0]).toMatchObject({
      trialDays: 14,
      trialEntitlements: ['PRO', 'EXPORT_PDF'],
    });
  });

  it("refuses days out of range and malformed codes in the contract's words, and sends nothing", async () => {
    const sentBodies = stubUpdate();
    await openSettings();
    const group = trialGroup();
    const days = group.getByLabelText('Trial days');
    fireEvent.change(days, { target: { value: '400' } });
    fireEvent.change(group.getByLabelText('Trial entitlements'), {
      target: { value: 'PRO EXPORT-PDF' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));
    const alerts = group.getAllByRole('alert').map((alert) => alert.textContent);
    expect(alerts).toEqual([
      'Trial days must be between 1 and 365 (leave it empty for no trial)',
      ENTITLEMENT_CODE_INVALID,
    ]);
    expect(days.getAttribute('aria-invalid')).toBe('true');
    expect(sentBodies).toEqual([]);
  });
});

// By accessible name: a required field's label also holds its (hidden) asterisk.
const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const problemOf = (control: HTMLElement) =>
  document.getElementById(`${control.id}-problem`)?.textContent ?? null;
const update = () => fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));

describe('ApplicationSettingsDialog: one surface', () => {
  it('edits every setting and the six messages, sent in one body', async () => {
    const sentBodies = stubUpdate((body) => jsonResponse(200, { ...application, ...body }));
    await openSettings();
    for (const name of [
      'Application Name',
      'Version',
      'Description',
      'Sessions per User',
      'Device limit',
      'Max offline days',
      'Portal name',
    ]) {
      expect(field(name)).toBeTruthy();
    }
    for (const name of ['Application Active', 'Hardware ID Locking', 'Require a licence key']) {
      expect(screen.getByRole('switch', { name })).toBeTruthy();
    }
    const loginFailed = field('Login failed message');
    expect(loginFailed.tagName).toBe('TEXTAREA');
    expect(loginFailed.value).toBe(defaultApplicationMessages.loginFailedMessage);

    fireEvent.change(loginFailed, { target: { value: 'Wrong password.\nForgot it? Reset it.' } });
    update();
    await waitFor(() => expect(sentBodies).toHaveLength(1));
    expect(sentBodies[0]).toMatchObject({
      name: 'Acme Desktop',
      maxSessionsPerUser: 3,
      loginFailedMessage: 'Wrong password.\nForgot it? Reset it.',
      hwidMismatchMessage: defaultApplicationMessages.hwidMismatchMessage,
    });
  });
});

describe('ApplicationSettingsDialog: problems at their fields', () => {
  it('checks sessions, version and messages before sending, all at once, focusing the first', async () => {
    const sentBodies = stubUpdate(() => jsonResponse(200, application));
    await openSettings();
    fireEvent.change(field('Version'), { target: { value: '  ' } });
    fireEvent.change(field('Sessions per User'), { target: { value: '-2' } });
    fireEvent.change(field('Account expired message'), { target: { value: '' } });
    update();

    expect(problemOf(field('Version'))).toBe('Please enter a version');
    expect(problemOf(field('Sessions per User'))).toBe(
      'Session limit must be at least 1 (leave it empty for no limit)',
    );
    expect(problemOf(field('Account expired message'))).toBe('Messages cannot be empty');
    expect(field('Version').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(field('Version')));
    expect(sentBodies).toEqual([]);

    // Mending a field forgets its problem; the others stay until the next save.
    fireEvent.change(field('Version'), { target: { value: '2.0.0' } });
    expect(problemOf(field('Version'))).toBeNull();
    expect(problemOf(field('Sessions per User'))).not.toBeNull();
  });

  it("places the server's refusals at the fields they name, in words, and focuses the first", async () => {
    stubUpdate(() =>
      jsonResponse(400, {
        message: `Session limit must be at most ${applicationLimits.maxSessionsPerUser}`,
        code: 'BAD_REQUEST',
        fields: [
          {
            field: 'maxSessionsPerUser',
            message: `Session limit must be at most ${applicationLimits.maxSessionsPerUser}`,
          },
          { field: 'portalName', message: 'Portal name is taken' },
        ],
      }),
    );
    await openSettings();
    update();

    await waitFor(() =>
      expect(problemOf(field('Sessions per User'))).toBe(
        `Session limit must be at most ${applicationLimits.maxSessionsPerUser}`,
      ),
    );
    expect(problemOf(field('Portal name'))).toBe('Portal name is taken');
    await waitFor(() => expect(document.activeElement).toBe(field('Sessions per User')));
    expect(screen.getByRole('dialog', { name: 'Application Settings' })).toBeTruthy();
  });
});
