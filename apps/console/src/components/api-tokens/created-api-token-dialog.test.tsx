import type { CreatedApiToken } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import {
  CLOSE_WITHOUT_COPYING_TITLE,
  CLOSE_WITHOUT_COPYING_WARNING,
  CreatedApiTokenDialog,
} from './created-api-token-dialog.tsx';

const TOKEN_TEXT = 'lk_AbCdEfGh0123456789abcdefghijklmnXYZ123';

const created: CreatedApiToken = {
  id: '00000000-0000-4000-8000-000000000099',
  name: 'Shop sync',
  prefix: 'lk_AbCdEfGh',
  scopes: ['applications:read'],
  applicationIds: null,
  expiresAt: null,
  allowedIps: null,
  createdAt: '2026-06-10T12:00:00.000Z',
  lastUsedAt: null,
  lastUsedIp: null,
  token: TOKEN_TEXT,
};

/** The page's part: it opens the dialog with a token and forgets the token once it has gone. */
function ShownToken() {
  const [isOpen, setIsOpen] = useState(true);
  const [token, setToken] = useState<CreatedApiToken | null>(created);
  return (
    <CreatedApiTokenDialog
      created={token}
      open={isOpen}
      onOpenChange={setIsOpen}
      onClosed={() => setToken(null)}
    />
  );
}

async function renderShownToken() {
  renderSignedIn(<ShownToken />);
  const dialog = await screen.findByRole('dialog', { name: 'Copy Your API Token' });
  return { dialog, shown: within(dialog) };
}

const findConfirmation = () =>
  screen.findByRole('alertdialog', { name: CLOSE_WITHOUT_COPYING_TITLE });

async function expectTokenGone() {
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(screen.queryByDisplayValue(TOKEN_TEXT)).toBeNull();
}

describe('CreatedApiTokenDialog', { timeout: 30_000 }, () => {
  resetEachTest(() =>
    // jsdom has no clipboard.
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async () => {} } }),
  );

  it('asks before Escape closes it uncopied; Escape on the question goes back to the token', async () => {
    const user = userEvent.setup();
    const { dialog } = await renderShownToken();

    await user.keyboard('{Escape}');
    const confirmation = await findConfirmation();
    expect(within(confirmation).getByText(CLOSE_WITHOUT_COPYING_WARNING)).toBeTruthy();
    // Focus starts on the safe answer.
    expect(document.activeElement).toBe(
      within(confirmation).getByRole('button', { name: 'Keep Open' }),
    );

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByDisplayValue(TOKEN_TEXT)).toBeTruthy();
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
  });

  it('asks before Done and the close button too: Keep Open keeps the token, Close gives it up', async () => {
    const user = userEvent.setup();
    const { shown } = await renderShownToken();

    await user.click(shown.getByRole('button', { name: 'Done' }));
    await user.click(within(await findConfirmation()).getByRole('button', { name: 'Keep Open' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Copy Your API Token' })).toBeTruthy();
    expect(screen.getByDisplayValue(TOKEN_TEXT)).toBeTruthy();

    await user.click(shown.getByRole('button', { name: 'Close' }));
    await user.click(within(await findConfirmation()).getByRole('button', { name: 'Close' }));
    await expectTokenGone();
  });

  it('asks before a click beside it closes it', async () => {
    await renderShownToken();
    // Radix listens from the tick after it opens, and dismisses on the click that follows.
    await waitFor(() => {
      fireEvent.pointerDown(document.body);
      fireEvent.click(document.body);
      expect(screen.getByRole('alertdialog', { name: CLOSE_WITHOUT_COPYING_TITLE })).toBeTruthy();
    });
    expect(screen.getByDisplayValue(TOKEN_TEXT)).toBeTruthy();
  });

  it('closes without asking once the token has been copied with Copy', async () => {
    const user = userEvent.setup();
    const { shown } = await renderShownToken();

    await user.click(shown.getByRole('button', { name: 'Copy' }));
    expect(await shown.findByRole('button', { name: 'Copied' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await expectTokenGone();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
