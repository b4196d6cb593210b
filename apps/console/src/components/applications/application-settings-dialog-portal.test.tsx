import { applicationLimits, type Application } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast } from '@/hooks/use-toast.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { createApplication, jsonResponse, stubOwnerApi } from '@/test/stub-owner-api.ts';
import { ApplicationSettingsDialog } from './application-settings-dialog.tsx';

const PUBLIC_ID = '5f3a9c0e12b4d6f80a1c';
const acme = createApplication({ name: 'Acme Desktop', portalPublicId: PUBLIC_ID });

/** The owner API's PUT answers with the application as saved; the requests sent are kept. */
function stubUpdate(application: Application) {
  const sent = stubOwnerApi(({ method, path, body }) =>
    method === 'PUT' && path === `/api/applications/${application.id}`
      ? jsonResponse(200, { ...application, ...(body as Partial<Application>) })
      : undefined,
  );
  return { puts: () => sent.filter(({ method }) => method === 'PUT') };
}

async function openSettings(application: Application) {
  renderWithProviders(<ApplicationSettingsDialog application={application} />, {
    auth: signedInAuth(),
    toaster: true,
  });
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
  return within(await screen.findByRole('group', { name: 'End-user portal' }));
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Update Application' }));
const hintOf = (element: HTMLElement) =>
  document.getElementById(element.getAttribute('aria-describedby')!)?.textContent;

// Radix's Switch measures itself; jsdom has no ResizeObserver, and sizes are not under test.
beforeEach(() => stubResizeObserver());
afterEach(() => {
  dismissToast();
  vi.unstubAllGlobals();
});

describe('ApplicationSettingsDialog: end-user portal', () => {
  it('shows the saved portal settings with their hints, and sends the switch and the name', async () => {
    const api = stubUpdate(acme);
    const group = await openSettings(acme);
    const toggle = group.getByRole('switch', { name: 'Turn on the end-user portal' });
    const name = group.getByLabelText('Portal name') as HTMLInputElement;
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(hintOf(toggle)).toBe(
      'End users sign in with their username and password to see their account, release a device and redeem a licence key.',
    );
    expect(name.value).toBe('');
    expect(name.placeholder).toBe('Acme Desktop');
    expect(hintOf(name)).toBe("Shown at the top of the portal; empty uses the application's name.");

    fireEvent.click(toggle);
    fireEvent.change(name, { target: { value: '  Acme Customer Centre ' } });
    submit();
    await waitFor(() => expect(api.puts()).toHaveLength(1));
    expect(api.puts()[0]!.body).toMatchObject({
      portalEnabled: true,
      portalName: 'Acme Customer Centre',
      name: 'Acme Desktop',
      maxDevices: 1,
    });
    expect(await screen.findByText('Application updated successfully')).toBeTruthy();
  });

  it('sends an emptied name as none (null), and the portal switched off', async () => {
    const api = stubUpdate(acme);
    const group = await openSettings({ ...acme, portalEnabled: true, portalName: 'Acme Help' });
    const toggle = group.getByRole('switch', { name: 'Turn on the end-user portal' });
    const name = group.getByLabelText('Portal name') as HTMLInputElement;
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(name.value).toBe('Acme Help');

    fireEvent.click(toggle);
    fireEvent.change(name, { target: { value: '   ' } });
    submit();
    await waitFor(() => expect(api.puts()).toHaveLength(1));
    expect(api.puts()[0]!.body).toMatchObject({ portalEnabled: false, portalName: null });
  });

  it("shows the portal's link with its public id, copies it, and opens it in a new tab", async () => {
    stubUpdate(acme);
    const writeText = vi.fn(async () => {});
    // jsdom has no clipboard.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const group = await openSettings(acme);
    const portalUrl = `${window.location.origin}/portal/${PUBLIC_ID}`;

    expect(group.getByTestId('portal-link').textContent).toBe(portalUrl);
    const open = group.getByRole('link', { name: 'Open the portal in a new tab' });
    expect(open.getAttribute('href')).toBe(portalUrl);
    expect(open.getAttribute('target')).toBe('_blank');
    expect(open.getAttribute('rel')).toContain('noopener');

    fireEvent.click(group.getByRole('button', { name: 'Copy portal link' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(portalUrl));
    const toast = within((await screen.findByText('Copied', { selector: 'li *' })).closest('li')!);
    expect(toast.getByText('Text copied to clipboard')).toBeTruthy();
  });

  it('says when the link does not open the portal, by what is saved and what is switched', async () => {
    stubUpdate(acme);
    const group = await openSettings(acme);
    const open = group.getByRole('link', { name: 'Open the portal in a new tab' });
    expect(hintOf(open)).toBe(
      'The portal is off: this link works once you turn the portal on and update the application.',
    );
    fireEvent.click(group.getByRole('switch', { name: 'Turn on the end-user portal' }));
    expect(hintOf(open)).toBe(
      'The portal is off until you update the application; then this link opens it.',
    );
  });

  it('says nothing about a portal that is on, and warns before it is switched off', async () => {
    stubUpdate(acme);
    const group = await openSettings({ ...acme, portalEnabled: true });
    const open = group.getByRole('link', { name: 'Open the portal in a new tab' });
    expect(open.getAttribute('aria-describedby')).toBeNull();
    expect(group.queryByText(/this link/)).toBeNull();

    fireEvent.click(group.getByRole('switch', { name: 'Turn on the end-user portal' }));
    expect(hintOf(open)).toBe(
      'This link stops working once you update the application with the portal off.',
    );
  });

  it("refuses a name that is too long in the contract's words, beside the field, and sends nothing", async () => {
    const api = stubUpdate(acme);
    const group = await openSettings(acme);
    const name = group.getByLabelText('Portal name');
    const longest = 'n'.repeat(applicationLimits.portalName);

    fireEvent.change(name, { target: { value: `${longest}n` } });
    submit();
    expect(group.getByRole('alert').textContent).toBe(
      `Portal name must be at most ${applicationLimits.portalName} characters`,
    );
    expect(name.getAttribute('aria-invalid')).toBe('true');
    // The Devices group has nothing to say about it.
    expect(within(screen.getByRole('group', { name: 'Devices' })).queryByRole('alert')).toBeNull();
    expect(api.puts()).toEqual([]);

    // The limit itself is allowed, and the spaces around it are not counted.
    fireEvent.change(name, { target: { value: ` ${longest} ` } });
    expect(group.queryByRole('alert')).toBeNull();
    expect(name.getAttribute('aria-invalid')).toBeNull();
    submit();
    await waitFor(() => expect(api.puts()).toHaveLength(1));
    expect(api.puts()[0]!.body).toMatchObject({ portalName: longest });
  });
});
