import { h, icon, replaceChildren } from './dom.ts';

/**
 * Light and dark: the reader's system setting by default (CSS `prefers-color-scheme`), or
 * the choice they made with the toggle, kept in localStorage and applied as `data-theme` on
 * <html>. The portal's own key: its readers are end users, not the console's owners.
 */
export type Theme = 'light' | 'dark';
export const PORTAL_THEME_STORAGE_KEY = 'latchkey-portal-theme';

const SUN = [
  'M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10z',
  'M12 1v2M12 21v2M4.22 4.22l1.42 1.42M18.36 18.36l1.42 1.42M1 12h2M21 12h2M4.22 19.78l1.42-1.42M18.36 5.64l1.42-1.42',
];
const MOON = ['M21 12.79A9 9 0 1 1 11.21 3 7 7 0 0 0 21 12.79z'];

function readStoredTheme(): Theme | null {
  try {
    const stored = localStorage.getItem(PORTAL_THEME_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : null;
  } catch {
    return null;
  }
}

function storeTheme(theme: Theme): void {
  try {
    localStorage.setItem(PORTAL_THEME_STORAGE_KEY, theme);
  } catch {
    // Without storage the choice lasts for this page view.
  }
}

const systemDark = () => window.matchMedia?.('(prefers-color-scheme: dark)');

function currentTheme(): Theme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return systemDark()?.matches ? 'dark' : 'light';
}

/** Applies a stored choice at once; before this runs the CSS follows the system. */
export function applyStoredTheme(): void {
  const stored = readStoredTheme();
  if (stored) document.documentElement.dataset.theme = stored;
}

/** The toggle button: its name says what a press does. */
export function createThemeToggle(): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'button button-ghost theme-toggle' });
  const render = () => {
    const next: Theme = currentTheme() === 'dark' ? 'light' : 'dark';
    button.setAttribute('aria-label', `Switch to ${next} theme`);
    button.title = `Switch to ${next} theme`;
    replaceChildren(
      button,
      icon(next === 'dark' ? MOON : SUN),
      h('span', { class: 'theme-toggle-text' }, next === 'dark' ? 'Dark' : 'Light'),
    );
  };
  button.addEventListener('click', () => {
    const next: Theme = currentTheme() === 'dark' ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    storeTheme(next);
    render();
  });
  // Until a choice is made the page follows the system, which may change while it is open.
  systemDark()?.addEventListener('change', render);
  render();
  return button;
}
