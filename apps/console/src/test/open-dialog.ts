import { fireEvent, screen, within } from '@testing-library/react';

/**
 * Opens a dialog from the first button named `buttonName` (a header's, where an empty state
 * offers another) and gives queries within the dialog named `dialogName`.
 */
export async function openDialog(buttonName: string, dialogName = buttonName) {
  fireEvent.click(screen.getAllByRole('button', { name: buttonName })[0]!);
  return within(await screen.findByRole('dialog', { name: dialogName }));
}
