import type { MailMessage, OpenedMailMessage } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import {
  jsonResponse,
  neverAnswered,
  orbit,
  pagedResponse,
  stubOwnerApi,
} from '@/test/stub-owner-api.ts';
import { MailPanel } from './mail-panel.tsx';

const MAIL_PATH = '/api/applications/7/mail';

function createMessage(index: number, overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    kind: 'password_reset',
    to: `user${index}@example.com`,
    subject: 'Choose a new password for Orbit',
    status: 'sent',
    attempts: 1,
    lastError: null,
    createdAt: '2026-11-01T12:00:00.000Z',
    sentAt: '2026-11-01T12:00:01.000Z',
    canOpen: true,
    ...overrides,
  };
}

const renderPanel = () => renderSignedIn(<MailPanel application={orbit} />);

describe('MailPanel', () => {
  resetEachTest(stubResizeObserver);

  it('shows a skeleton, then says when no mail was sent', async () => {
    let answer: (response: Response) => void = () => {};
    stubOwnerApi(({ url }) =>
      url.pathname === MAIL_PATH ? new Promise((resolve) => (answer = resolve)) : undefined,
    );
    renderPanel();
    expect(await screen.findByRole('status', { name: 'Loading mail' })).toBeTruthy();
    answer(pagedResponse([]));
    expect(await screen.findByRole('heading', { name: 'No mail sent yet' })).toBeTruthy();
  });

  it('lists messages, filters by status and search, and opens a mailbox copy', async () => {
    const failed = createMessage(2, {
      status: 'failed',
      lastError: '550 No such mailbox',
      canOpen: false,
      sentAt: null,
    });
    const sent = stubOwnerApi(({ url }) => {
      if (url.pathname === MAIL_PATH) {
        const status = url.searchParams.get('status');
        const rows = [createMessage(1), failed].filter((row) => !status || row.status === status);
        return pagedResponse(rows);
      }
      if (url.pathname === `${MAIL_PATH}/${createMessage(1).id}`) {
        const opened: OpenedMailMessage = {
          ...createMessage(1),
          content: {
            subject: 'Choose a new password for Orbit',
            text: 'Hello user1,\n\nhttps://latchkey.example.com/portal/0123456789abcdef0123/reset?token=abc\n',
            html: '<p>Hello</p>',
          },
        };
        return jsonResponse(200, opened);
      }
      return undefined;
    });
    renderPanel();
    const table = await screen.findByRole('region', { name: 'Mail' });
    expect(within(table).getByText('user1@example.com')).toBeTruthy();
    expect(within(table).getByText('550 No such mailbox')).toBeTruthy();
    // Only a mailbox copy opens; only a failed message is sent again.
    expect(screen.getAllByRole('button', { name: /^Open the/ })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: /again$/ })).toHaveLength(1);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search mail' }), {
      target: { value: 'user2' },
    });
    await waitFor(() =>
      expect(sent.some((request) => request.path.includes('search=user2'))).toBe(true),
    );

    fireEvent.click(
      screen.getByRole('button', { name: 'Open the password reset mail to user1@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Password reset' });
    const link = await within(dialog).findByRole('link');
    expect(link.getAttribute('href')).toBe(
      'https://latchkey.example.com/portal/0123456789abcdef0123/reset?token=abc',
    );
    expect(link.getAttribute('rel')).toContain('noreferrer');
  });

  it('sends a failed message again, toasts, and re-reads the log', async () => {
    const failed = createMessage(3, { status: 'failed', lastError: '421 Busy', canOpen: false });
    let resent = false;
    const sent = stubOwnerApi(({ method, url }) => {
      if (method === 'GET' && url.pathname === MAIL_PATH) {
        return pagedResponse([resent ? { ...failed, status: 'queued' } : failed]);
      }
      if (method === 'POST' && url.pathname === `${MAIL_PATH}/${failed.id}/resend`) {
        resent = true;
        return jsonResponse(200, { ...failed, status: 'queued' });
      }
      return neverAnswered();
    });
    renderPanel();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Send the mail to user3@example.com again' }),
    );
    expect(await findToast('Mail queued to be sent again')).toBeTruthy();
    expect(await screen.findByText('Queued')).toBeTruthy();
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});
