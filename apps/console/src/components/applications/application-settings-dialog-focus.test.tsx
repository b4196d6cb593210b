import type { Application } from '@latchkey/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Button } from '@/components/ui/button.tsx';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { createApplication } from '@/test/stub-owner-api.ts';
import { EditApplicationSettingsDialog } from './application-settings-dialog.tsx';

const application = createApplication({ name: 'Acme Desktop', maxSessionsPerUser: 3 });

/** Opened the way the dashboard's table opens it: a row button sets the (controlled) target. */
function EditFromRow() {
  const editing = useDialogTarget<Application>();
  return (
    <>
      <Button onClick={() => editing.open(application)}>Edit application</Button>
      <EditApplicationSettingsDialog
        application={editing.target}
        open={editing.isOpen}
        onOpenChange={editing.setIsOpen}
      />
    </>
  );
}

async function openEditDialog() {
  const user = userEvent.setup();
  renderWithProviders(<EditFromRow />, { auth: signedInAuth(), toaster: true });
  const opener = screen.getByRole('button', { name: 'Edit application' });
  await user.click(opener);
  await screen.findByRole('dialog', { name: 'Application Settings' });
  return { user, opener };
}

function stubFetch(answer: () => Promise<Response>) {
  vi.stubGlobal('fetch', vi.fn(answer));
}

describe('Application settings opened from a row: focus and Escape', () => {
  // Radix's Checkbox measures itself; jsdom has no ResizeObserver, and sizes are not under test.
  beforeEach(() => stubResizeObserver());
  afterEach(() => vi.unstubAllGlobals());

  it('returns focus to the button that opened it when Esc closes it', async () => {
    const { user, opener } = await openEditDialog();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('returns focus to the opener after Cancel', async () => {
    const { user, opener } = await openEditDialog();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('closes with Esc after a failed save, while the error toast is showing', async () => {
    stubFetch(async () =>
      Response.json({ message: 'Database unavailable', code: 'INTERNAL' }, { status: 500 }),
    );
    const { user, opener } = await openEditDialog();
    await user.click(screen.getByRole('button', { name: 'Update Application' }));
    expect(await screen.findByText('Database unavailable')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Application Settings' })).toBeTruthy();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('closes with Esc while the save is still pending', async () => {
    stubFetch(() => new Promise<Response>(() => {}));
    const { user, opener } = await openEditDialog();
    await user.click(screen.getByRole('button', { name: 'Update Application' }));
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Update Application' }).hasAttribute('disabled'),
      ).toBe(true),
    );

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });
});
