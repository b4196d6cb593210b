import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { createApplication, jsonResponse, stubOwnerApi } from '@/test/stub-owner-api.ts';
import { mailDeliveryNotes, MailSenderCard } from './mail-sender-card.tsx';

const orbit = createApplication({ id: 7, name: 'Orbit', mailReplyTo: 'old@orbit.example' });

const runtimeConfig = (mailDelivery: 'smtp' | 'mailbox' | 'off') => ({
  firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-latchkey' },
  authEmulatorUrl: null,
  endUserPasswordMinLength: 8,
  mailDelivery,
});

describe('MailSenderCard', () => {
  resetEachTest();

  it('says when the server sends no mail', async () => {
    stubOwnerApi(({ url }) =>
      url.pathname === '/api/config' ? jsonResponse(200, runtimeConfig('off')) : undefined,
    );
    renderSignedIn(<MailSenderCard application={orbit} />);
    expect(await screen.findByText(mailDeliveryNotes.off)).toBeTruthy();
  });

  it('checks its fields before sending, and saves only its two fields', async () => {
    let answer = jsonResponse(400, {
      message: 'Sender name must be one line',
      code: 'BAD_REQUEST',
      fields: [{ field: 'mailSenderName', message: 'Sender name must be one line' }],
    });
    const sent = stubOwnerApi(({ method, url }) => {
      if (url.pathname === '/api/config') return jsonResponse(200, runtimeConfig('smtp'));
      if (method === 'PUT' && url.pathname === '/api/applications/7') return answer;
      return undefined;
    });
    renderSignedIn(<MailSenderCard application={orbit} />);
    const puts = () => sent.filter((request) => request.method === 'PUT');
    expect((screen.getByLabelText('Reply-to address') as HTMLInputElement).value).toBe(
      'old@orbit.example',
    );
    fireEvent.change(screen.getByLabelText('Sender name'), { target: { value: 'Orbit Support' } });
    fireEvent.change(screen.getByLabelText('Reply-to address'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Sender' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Reply-to must be an e-mail address',
    );
    expect(screen.getByLabelText('Reply-to address').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Sender name').getAttribute('aria-invalid')).toBeNull();
    expect(puts()).toHaveLength(0);

    // The server's refusal is shown at the field it names.
    fireEvent.change(screen.getByLabelText('Reply-to address'), {
      target: { value: 'help@orbit.example' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save Sender' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Sender name').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(screen.getByRole('alert').textContent).toBe('Sender name must be one line');
    expect(puts()[0]?.body).toEqual({
      mailSenderName: 'Orbit Support',
      mailReplyTo: 'help@orbit.example',
    });

    answer = jsonResponse(200, { ...orbit, mailSenderName: 'Orbit Support' });
    fireEvent.change(screen.getByLabelText('Sender name'), { target: { value: 'Orbit Help' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Sender' }));
    expect(await findToast('Application updated successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});
