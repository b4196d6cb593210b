import { APPLICATION_NAME_REQUIRED } from '@latchkey/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { dismissToast } from '@/hooks/use-toast.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import {
  createApplication,
  jsonResponse,
  stubOwnerApi,
  type OwnerApiRoute,
} from '@/test/stub-owner-api.ts';
import { CreateApplicationDialog } from './create-application-dialog.tsx';

/** POST /api/applications answers as the server does, with the application it made. */
const createsApplications: OwnerApiRoute = ({ method, url, body }) => {
  if (method !== 'POST' || url.pathname !== '/api/applications') return undefined;
  const { name, description } = body as { name: string; description: string };
  return jsonResponse(201, createApplication({ id: 12, name, description: description || null }));
};

async function openDialog() {
  const user = userEvent.setup();
  renderWithProviders(<CreateApplicationDialog />, { auth: signedInAuth(), toaster: true });
  await user.click(screen.getByRole('button', { name: 'New Application' }));
  const dialog = await screen.findByRole('dialog', { name: 'New Application' });
  return {
    user,
    dialog,
    name: within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement,
    description: within(dialog).getByRole('textbox', {
      name: 'Description (optional)',
    }) as HTMLTextAreaElement,
    submit: within(dialog).getByRole('button', { name: 'Create Application' }),
  };
}

describe('CreateApplicationDialog', { timeout: 30_000 }, () => {
  beforeEach(() => dismissToast());

  it('asks for a name, blank or spaces only, before sending anything', async () => {
    const sent = stubOwnerApi(createsApplications);
    const { user, dialog, name, submit } = await openDialog();
    expect(within(dialog).queryByRole('alert')).toBeNull();

    await user.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toBe(APPLICATION_NAME_REQUIRED);
    expect(APPLICATION_NAME_REQUIRED).toBe('Please enter an application name');
    expect(name.getAttribute('aria-invalid')).toBe('true');

    await user.type(name, '   ');
    await user.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toBe(APPLICATION_NAME_REQUIRED);
    expect(sent).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'New Application' })).toBe(dialog);
  });

  it('sends the trimmed name and description, closes, and says so', async () => {
    const sent = stubOwnerApi(createsApplications);
    const { user, dialog, name, description, submit } = await openDialog();
    await user.click(submit);
    expect(within(dialog).getByRole('alert')).toBeTruthy();

    await user.type(name, '  Orbit  ');
    await user.type(description, ' Our launcher ');
    await user.click(submit);

    expect(await screen.findByText('Application created successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent.filter((request) => request.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/applications',
        body: { name: 'Orbit', description: 'Our launcher' },
      },
    ]);
  });

  it("stays open with the owner's input when the server refuses, showing the server's reason", async () => {
    stubOwnerApi(({ method }) =>
      method === 'POST'
        ? jsonResponse(400, { message: 'name: at most 100 characters', code: 'VALIDATION' })
        : undefined,
    );
    const { user, name, description, submit } = await openDialog();
    await user.type(name, 'Orbit');
    await user.type(description, 'Our launcher');
    await user.click(submit);

    const toast = await screen.findByText('name: at most 100 characters');
    expect(toast.previousElementSibling?.textContent).toBe('Error');
    const dialog = screen.getByRole('dialog', { name: 'New Application' });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(name.value).toBe('Orbit');
    expect(description.value).toBe('Our launcher');
    expect((submit as HTMLButtonElement).disabled).toBe(false);
  });

  it('opens with an empty form after Cancel', async () => {
    stubOwnerApi(createsApplications);
    const { user, name, submit } = await openDialog();
    await user.click(submit);
    await user.type(name, 'Half-typed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'New Application' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Application' });
    expect((within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe(
      '',
    );
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });
});
