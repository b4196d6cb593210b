import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { Button } from './button.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from './dropdown-menu.tsx';

/** A row's "more" menu whose item asks for confirmation: the item unmounts with its menu. */
function MenuThatConfirms() {
  const [isConfirming, setIsConfirming] = useState(false);
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline">Row actions</Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuItem onSelect={() => setIsConfirming(true)}>Delete…</DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ConfirmDialog
        open={isConfirming}
        onOpenChange={setIsConfirming}
        title="Delete it?"
        description="This cannot be undone."
        confirmLabel="Delete"
        onConfirm={() => {}}
      />
    </>
  );
}

async function confirmFromMenu() {
  const user = userEvent.setup();
  renderWithProviders(<MenuThatConfirms />);
  const menuTrigger = screen.getByRole('button', { name: 'Row actions' });
  menuTrigger.focus();
  await user.keyboard('{Enter}');
  await user.click(await screen.findByRole('menuitem', { name: 'Delete…' }));
  await screen.findByRole('alertdialog', { name: 'Delete it?' });
  await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  return { user, menuTrigger };
}

describe('ConfirmDialog opened from a dropdown menu item', () => {
  it('returns focus to the menu button after Cancel', async () => {
    const { user, menuTrigger } = await confirmFromMenu();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(menuTrigger));
  });

  it('closes with Esc and returns focus to the menu button', async () => {
    const { user, menuTrigger } = await confirmFromMenu();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(menuTrigger));
  });
});
