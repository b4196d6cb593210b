import { applicationLimits, defaultApplicationMessages } from '@latchkey/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { createApplication, jsonResponse } from '@/test/stub-owner-api.ts';
import { ApplicationSettingsDialog } from './application-settings-dialog.tsx';

const application = createApplication({ name: 'Acme Desktop', maxSessionsPerUser: 3 });

/** Each PUT is answered by `answer`; the bodies sent are returned. */
function stubUpdate(answer: (body: Record<string, unknown>) => Response) {
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

beforeEach(() => stubResizeObserver());
afterEach(() => vi.unstubAllGlobals());

async function openSettings() {
  renderWithProviders(<ApplicationSettingsDialog application={application} />, {
    auth: signedInAuth(),
    toaster: true,
  });
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
  await screen.findByRole('dialog', { name: 'Application Settings' });
}

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
