import type { MailTemplate } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { jsonResponse, orbit, stubOwnerApi } from '@/test/stub-owner-api.ts';
import { MailTemplatesCard } from './mail-templates-card.tsx';

const TEMPLATES_PATH = '/api/applications/7/mail-templates';

const defaultReset: MailTemplate = {
  kind: 'password_reset',
  subject: 'Choose a new password for {{app_name}}',
  text: 'Hello {{username}}, {{link}}',
  html: '<p>Hello {{username}}</p>',
  isDefault: true,
};

/** The templates API: the five kinds, password_reset saved or reset as asked. */
function stubTemplatesApi() {
  let reset = defaultReset;
  return stubOwnerApi(({ method, url, body }) => {
    if (method === 'GET' && url.pathname === TEMPLATES_PATH) {
      return jsonResponse(200, [
        reset,
        ...(['email_verification', 'license_key', 'expiry_reminder', 'new_device'] as const).map(
          (kind) => ({ ...defaultReset, kind }),
        ),
      ]);
    }
    if (url.pathname === `${TEMPLATES_PATH}/password_reset`) {
      if (method === 'PUT') {
        const draft = body as { html: string };
        if (draft.html.includes('{{{')) {
          return jsonResponse(400, {
            message: 'html: {{{username}}} would skip escaping: write {{username}}',
            code: 'BAD_REQUEST',
          });
        }
        reset = { ...reset, ...(body as object), isDefault: false };
        return jsonResponse(200, reset);
      }
      if (method === 'DELETE') {
        reset = defaultReset;
        return jsonResponse(200, reset);
      }
    }
    if (method === 'POST' && url.pathname === `${TEMPLATES_PATH}/password_reset/preview`) {
      return jsonResponse(200, {
        subject: 'Choose a new password for Orbit',
        text: 'Hello sample_user',
        html: '',
      });
    }
    return undefined;
  });
}

describe('MailTemplatesCard', () => {
  resetEachTest();

  it('previews, refuses at its field, saves, then resets to the default after asking', async () => {
    const sent = stubTemplatesApi();
    renderSignedIn(<MailTemplatesCard application={orbit} />);
    const subject = await screen.findByLabelText('Subject');
    expect((subject as HTMLInputElement).value).toBe(defaultReset.subject);
    expect(screen.getByText('Default')).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Save Template' }) as HTMLButtonElement).disabled,
    ).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const preview = await screen.findByRole('region', { name: 'Preview' });
    expect(within(preview).getByText('Choose a new password for Orbit')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('HTML'), { target: { value: '<p>{{{username}}}</p>' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Template' }));
    expect((await screen.findByRole('alert')).textContent).toContain('would skip escaping');
    expect(screen.getByLabelText('HTML').getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(screen.getByLabelText('HTML'), { target: { value: '<p>{{username}}</p>' } });
    fireEvent.change(subject, { target: { value: 'Your {{app_name}} password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Template' }));
    expect(await findToast('Template saved successfully')).toBeTruthy();
    expect(await screen.findByText('Customised')).toBeTruthy();
    expect(sent.filter((request) => request.method === 'PUT').at(-1)?.body).toEqual({
      subject: 'Your {{app_name}} password',
      text: defaultReset.text,
      html: '<p>{{username}}</p>',
    });

    fireEvent.click(screen.getByRole('button', { name: 'Reset to Default' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Reset to the default?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Reset Template' }));
    expect(await findToast('Template reset to the default')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe(
        defaultReset.subject,
      ),
    );
    expect(sent.some((request) => request.method === 'DELETE')).toBe(true);
  });
});
