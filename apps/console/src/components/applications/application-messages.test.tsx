import { defaultApplicationMessages } from '@latchkey/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { createApplication, jsonResponse, stubOwnerApi } from '@/test/stub-owner-api.ts';
import { ApplicationMessages } from './application-messages.tsx';

const orbit = createApplication({ id: 7, name: 'Orbit' });
// By accessible name: a required field's label also holds its (hidden) asterisk.
const messageField = (name: string) => screen.getByRole('textbox', { name }) as HTMLTextAreaElement;

describe('ApplicationMessages', () => {
  resetEachTest();

  it('edits the six messages in text areas and saves them together', async () => {
    const sent = stubOwnerApi(({ method, url, body }) =>
      method === 'PUT' && url.pathname === '/api/applications/7'
        ? jsonResponse(200, { ...orbit, ...(body as object) })
        : undefined,
    );
    renderSignedIn(<ApplicationMessages application={orbit} />);
    expect(screen.getAllByRole('textbox')).toHaveLength(6);
    expect(messageField('Login success message').value).toBe(
      defaultApplicationMessages.loginSuccessMessage,
    );

    fireEvent.change(messageField('Version mismatch message'), {
      target: { value: 'A new version is out.\nDownload it from example.com.' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save Messages' }));
    expect(await findToast('Application updated successfully')).toBeTruthy();
    expect(sent.find((request) => request.method === 'PUT')?.body).toEqual({
      ...defaultApplicationMessages,
      versionMismatchMessage: 'A new version is out.\nDownload it from example.com.',
    });
  });

  it('refuses an empty message at its field and sends nothing', async () => {
    const sent = stubOwnerApi(() => undefined);
    renderSignedIn(<ApplicationMessages application={orbit} />);
    fireEvent.change(messageField('Login failed message'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Messages' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Messages cannot be empty');
    expect(messageField('Login failed message').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(messageField('Login failed message')));
    expect(sent.filter((request) => request.method === 'PUT')).toEqual([]);
  });
});
