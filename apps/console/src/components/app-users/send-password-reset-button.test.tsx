import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { jsonResponse, stubOwnerApi } from '@/test/stub-owner-api.ts';
import { SendPasswordResetButton } from './send-password-reset-button.tsx';

const USER_ID = '00000000-0000-4000-8000-000000000001';
const button = () => screen.getByRole('button', { name: 'Send Password Reset' });

describe('SendPasswordResetButton', () => {
  resetEachTest();

  it('mails the user a link and toasts where it went', async () => {
    const sent = stubOwnerApi(({ method, url }) =>
      method === 'POST' && url.pathname === `/api/applications/7/users/${USER_ID}/password-reset`
        ? jsonResponse(202, { message: 'A link to choose a new password is on its way to a@b.c' })
        : undefined,
    );
    renderSignedIn(
      <SendPasswordResetButton applicationId={7} user={{ id: USER_ID, email: 'a@b.c' }} />,
    );
    fireEvent.click(button());
    expect(await findToast('A link to choose a new password is on its way to a@b.c')).toBeTruthy();
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('is unavailable, and says why, for a user without an address', () => {
    stubOwnerApi(() => undefined);
    renderSignedIn(
      <SendPasswordResetButton applicationId={7} user={{ id: USER_ID, email: null }} />,
    );
    expect((button() as HTMLButtonElement).disabled).toBe(true);
    expect(button().getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('Add an e-mail address (and save) to send a link.')).toBeTruthy();
  });
});
