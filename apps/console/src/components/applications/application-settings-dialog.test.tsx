import { deviceLimits, offlineLicenseLimits } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { createApplication } from '@/test/stub-owner-api.ts';
import { ApplicationSettingsDialog } from './application-settings-dialog.tsx';

const application = createApplication({ name: 'Acme Desktop', maxSessionsPerUser: 3 });

/** The owner API's PUT answers with the application as saved; the body sent is returned. */
function stubUpdate() {
  const sentBodies: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      if (init?.method === 'PUT') sentBodies.push(body);
      return new Response(JSON.stringify({ ...application, ...body }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
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
