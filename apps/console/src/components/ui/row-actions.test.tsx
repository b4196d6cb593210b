import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Eye, Pencil, Trash2, Users } from 'lucide-react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { fakeMediaQueryList, stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import {
  EMPTY_ACTION_SLOT,
  ROW_ACTIONS_MENU_MEDIA_QUERY,
  RowActions,
  type RowActionEntry,
} from './row-actions.tsx';

/** Makes the menu's media query match, as on a 390 px screen. */
function stubPhoneScreen() {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
    fakeMediaQueryList(query, query === ROW_ACTIONS_MENU_MEDIA_QUERY),
  );
}

function renderActions(extra: RowActionEntry[] = []) {
  const handlers = { onReveal: vi.fn(), onEdit: vi.fn(), onDelete: vi.fn(), onRefused: vi.fn() };
  const actions: RowActionEntry[] = [
    { label: 'Reveal secret', icon: Eye, isPressed: false, onSelect: handlers.onReveal },
    { label: 'Copy secret', copyValue: 's3cret', toastMessage: 'Secret copied to clipboard' },
    { label: 'Delete row', icon: Trash2, isDestructive: true, onSelect: handlers.onDelete },
    { label: 'Edit row', icon: Pencil, onSelect: handlers.onEdit },
    { label: 'Open row', icon: Users, href: '/rows/7' },
    {
      label: 'Promote row',
      icon: Users,
      disabledReason: 'Only active rows can be promoted',
      onSelect: handlers.onRefused,
    },
    ...extra,
  ];
  renderWithProviders(<RowActions rowName="Acme Desktop" actions={actions} />, {
    toaster: true,
  });
  return handlers;
}

describe('RowActions', () => {
  // userEvent.setup() puts a clipboard of its own on navigator, which jsdom lacks.
  resetEachTest(stubResizeObserver);
  afterEach(() => vi.restoreAllMocks());

  describe('from the sm breakpoint up', () => {
    it('draws each action as an icon button named by its label, in the given order', () => {
      renderActions([false, EMPTY_ACTION_SLOT]);
      expect(screen.queryByRole('button', { name: 'Actions for Acme Desktop' })).toBeNull();
      const names = [...screen.getAllByRole('button'), ...screen.getAllByRole('link')].map(
        (element) => element.getAttribute('aria-label'),
      );
      expect(names).toEqual([
        'Reveal secret',
        'Copy secret',
        'Delete row',
        'Edit row',
        'Promote row',
        'Open row',
      ]);
      expect(
        screen.getByRole('button', { name: 'Reveal secret' }).getAttribute('aria-pressed'),
      ).toBe('false');
      expect(screen.getByRole('link', { name: 'Open row' }).getAttribute('href')).toBe('/rows/7');
      // The empty slot keeps its place; `false` draws nothing.
      const wrapper = screen.getByRole('button', { name: 'Reveal secret' }).parentElement!;
      expect(wrapper.querySelectorAll(':scope > span[aria-hidden="true"]')).toHaveLength(1);
    });

    it('runs an action on click, copies with a toast, and refuses one with a reason', async () => {
      const user = userEvent.setup();
      const handlers = renderActions();
      await user.click(screen.getByRole('button', { name: 'Edit row' }));
      expect(handlers.onEdit).toHaveBeenCalledTimes(1);

      await user.click(screen.getByRole('button', { name: 'Copy secret' }));
      expect(await navigator.clipboard.readText()).toBe('s3cret');
      expect(await findToast('Secret copied to clipboard')).toBeTruthy();

      const refused = screen.getByRole('button', { name: 'Promote row' });
      expect(refused.getAttribute('aria-disabled')).toBe('true');
      await user.click(refused);
      expect(handlers.onRefused).not.toHaveBeenCalled();
    });
  });

  describe('on a phone', () => {
    beforeEach(stubPhoneScreen);

    async function openMenu() {
      const user = userEvent.setup();
      const trigger = screen.getByRole('button', { name: 'Actions for Acme Desktop' });
      trigger.focus();
      await user.keyboard('{Enter}');
      const menu = await screen.findByRole('menu');
      return { user, trigger, menu };
    }

    it('offers one labelled menu, its items named as the buttons, the destructive set apart last', async () => {
      renderActions([false, EMPTY_ACTION_SLOT]);
      expect(screen.getAllByRole('button')).toHaveLength(1);
      expect(screen.queryByRole('button', { name: 'Edit row' })).toBeNull();

      const { menu } = await openMenu();
      expect(within(menu).getByText('Acme Desktop')).toBeTruthy();
      const items = within(menu).getAllByRole('menuitem');
      expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
        'Reveal secret',
        'Copy secret',
        'Edit row',
        'Open row',
        'Promote row',
        'Delete row',
      ]);
      expect(within(menu).getByRole('menuitem', { name: 'Open row' }).getAttribute('href')).toBe(
        '/rows/7',
      );
      // A separator after the row's name, and one before the destructive items.
      const children = Array.from(menu.children);
      const separators = within(menu).getAllByRole('separator');
      expect(separators).toHaveLength(2);
      expect(children.indexOf(separators[1]!)).toBe(children.indexOf(items.at(-1)!) - 1);
      expect(items.at(-1)!.className).toContain('text-destructive');
      expect(items[0]!.className).not.toContain('text-destructive');

      const refused = within(menu).getByRole('menuitem', { name: 'Promote row' });
      expect(refused.getAttribute('aria-disabled')).toBe('true');
      expect(refused.getAttribute('aria-describedby')).toBeTruthy();
      expect(document.getElementById(refused.getAttribute('aria-describedby')!)!.textContent).toBe(
        'Only active rows can be promoted',
      );
    });

    it('is worked by keyboard: arrows move, Enter runs, Escape closes and returns focus', async () => {
      const handlers = renderActions();
      const { user, trigger } = await openMenu();
      await waitFor(() =>
        expect(document.activeElement?.getAttribute('aria-label')).toBe('Reveal secret'),
      );
      await user.keyboard('{ArrowDown}{ArrowDown}');
      expect(document.activeElement?.getAttribute('aria-label')).toBe('Edit row');
      await user.keyboard('{Enter}');
      expect(handlers.onEdit).toHaveBeenCalledTimes(1);
      await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(trigger));

      await openMenu();
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(trigger));
      expect(handlers.onDelete).not.toHaveBeenCalled();
    });

    it('copies from the menu with the same toast, and skips a refused item', async () => {
      const handlers = renderActions();
      const { user, menu } = await openMenu();
      await user.click(within(menu).getByRole('menuitem', { name: 'Copy secret' }));
      expect(await navigator.clipboard.readText()).toBe('s3cret');
      expect(await findToast('Secret copied to clipboard')).toBeTruthy();

      const reopened = await openMenu();
      // End reaches Delete; up from it skips the refused item.
      await waitFor(() =>
        expect(document.activeElement?.getAttribute('aria-label')).toBe('Reveal secret'),
      );
      await reopened.user.keyboard('{End}{ArrowUp}');
      expect(document.activeElement?.getAttribute('aria-label')).toBe('Open row');
      expect(handlers.onRefused).not.toHaveBeenCalled();
    });
  });
});
