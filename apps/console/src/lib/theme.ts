export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'latchkey-auth-theme';
export const DEFAULT_THEME: Theme = 'light';

export function readStoredTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'dark' || stored === 'light' ? stored : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

export function storeTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Without storage the choice just lasts for this page view.
  }
}

/** Tailwind's `dark:` variant is keyed on this class on the root element. */
export function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
}
