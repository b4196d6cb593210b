import type { Application } from '@latchkey/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createAuthValue,
  createCurrentUser,
  renderWithProviders,
} from '@/test/render-with-providers.tsx';
import { ApplicationSettingsDialog } from './application-settings-dialog.tsx';

const application: Application = {
  id: 7,
  name: 'Acme Desktop',
  description: null,
  apiKey: 'lk_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHI',
  isActive: true,
  version: '1.0.0',
  hwidLockEnabled: false,
  maxSessionsPerUser: 3,
  licenseRequired: false,
  loginSuccessMessage: 'ok',
  loginFailedMessage: 'no',
  accountDisabledMessage: 'disabled',
  accountExpiredMessage: 'expired',
  versionMismatchMessage: 'update',
  hwidMismatchMessage: 'HWID',
  signingPublicKey: 'ab'.repeat(32),
  createdAt: '2025-03-14T12:00:00.000Z',
  updatedAt: '2025-03-14T12:00:00.000Z',
};

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
beforeEach(() =>
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  ),
);
afterEach(() => vi.unstubAllGlobals());

async function openSettings() {
  renderWithProviders(<ApplicationSettingsDialog application={application} />, {
    auth: createAuthValue({ user: createCurrentUser(), isAuthenticated: true }),
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
