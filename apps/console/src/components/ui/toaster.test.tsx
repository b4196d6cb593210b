import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { toast } from '@/hooks/use-toast.ts';
import { findToast } from '@/test/find-toast.ts';
import { resetEachTest } from '@/test/reset-each-test.ts';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from './alert-dialog.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from './dialog.tsx';
import { Toaster } from './toaster.tsx';

/** A page with a controlled Edit dialog (opened from a row, as the tables do) and a confirmation. */
function PageWithDialogs() {
  const [isEditing, setIsEditing] = useState(false);
  const [isConfirming, setIsConfirming] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setIsEditing(true)}>
        Edit
      </button>
      <button type="button" onClick={() => setIsConfirming(true)}>
        Delete
      </button>
      <Dialog open={isEditing} onOpenChange={setIsEditing}>
        <DialogContent>
          <DialogTitle>Edit Thing</DialogTitle>
          <DialogDescription>Change its name.</DialogDescription>
          <input aria-label="Name" autoFocus />
        </DialogContent>
      </Dialog>
      <AlertDialog open={isConfirming} onOpenChange={setIsConfirming}>
        <AlertDialogContent>
          <AlertDialogTitle>Delete thing?</AlertDialogTitle>
          <AlertDialogDescription>This cannot be undone.</AlertDialogDescription>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

async function renderWithToast(text: string) {
  render(
    <>
      <PageWithDialogs />
      <Toaster />
    </>,
  );
  act(() => {
    toast({ title: text });
  });
  return findToast(text);
}

function pressEscape() {
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
}

const isToastOpen = (text: string) =>
  screen.queryByText(text, { selector: 'li *' })?.closest('li')?.dataset.state === 'open';

/**
 * Clicks the button named `buttonName` and presses Escape as soon as React has committed what
 * the click opened, without letting the renders scheduled after it run (outside `act`, which
 * would run them all first). This is the moment a fast key press meets a dialog that has just
 * opened: Radix has mounted it but not yet made it the top-most layer, so the older toast still
 * listens.
 */
async function clickThenEscapeAtOnce(buttonName: string, dialogRole: 'dialog' | 'alertdialog') {
  const environment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const wasActEnvironment = environment.IS_REACT_ACT_ENVIRONMENT;
  environment.IS_REACT_ACT_ENVIRONMENT = false;
  try {
    screen.getByRole('button', { name: buttonName }).click();
    // React renders a click's update in a microtask; its later layer bookkeeping waits for a task.
    await Promise.resolve();
    const dialog = screen.getByRole(dialogRole);
    // Radix sets this once the dialog is the top-most layer: not yet, or the test proves nothing.
    expect(dialog.style.pointerEvents).toBe('');
    pressEscape();
  } finally {
    environment.IS_REACT_ACT_ENVIRONMENT = wasActEnvironment;
  }
}

describe('Escape with a toast on screen', () => {
  resetEachTest();

  it('closes a dialog opened over the toast at once, and leaves the toast', async () => {
    await renderWithToast('Success');

    await clickThenEscapeAtOnce('Edit', 'dialog');

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(isToastOpen('Success')).toBe(true);
  });

  it('closes a confirmation opened over the toast at once, and leaves the toast', async () => {
    await renderWithToast('Success');

    await clickThenEscapeAtOnce('Delete', 'alertdialog');

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(isToastOpen('Success')).toBe(true);
  });

  it('closes the dialog, not a toast raised while the dialog was open', async () => {
    render(
      <>
        <PageWithDialogs />
        <Toaster />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    await screen.findByRole('dialog', { name: 'Edit Thing' });
    act(() => {
      toast({ title: 'The database is unavailable', variant: 'destructive' });
    });
    await findToast('The database is unavailable');

    pressEscape();

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(isToastOpen('The database is unavailable')).toBe(true);
  });

  it('dismisses the toast when no dialog is open', async () => {
    await renderWithToast('Success');

    pressEscape();

    await waitFor(() => expect(isToastOpen('Success')).toBe(false));
  });
});
